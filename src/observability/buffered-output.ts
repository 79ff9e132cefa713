import { write, writeSync } from 'node:fs';

// The log's way to stdout. Lines are encoded straight into one of two
// preallocated buffers (no string is kept waiting, so nothing a request
// logged outlives the young generation for the garbage collector to copy),
// and a full buffer, or whatever is there FLUSH_MS after the first line
// since the last write, goes out in one write(2) from the thread pool while
// the other buffer fills. At exit what is left is written synchronously.

const BUFFER_BYTES = 64 * 1024;
const FLUSH_MS = 100;

export class BufferedOutput {
  readonly #fd: number;
  #filling: Buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  #spare: Buffer | null = Buffer.allocUnsafe(BUFFER_BYTES);
  #used = 0;
  #timer: NodeJS.Timeout | null = null;
  /** Bytes that found no room while a write was under way: rare, kept in order. */
  #overflow: Buffer[] = [];

  constructor(fd: number) {
    this.#fd = fd;
    process.on('exit', () => this.flushSync());
  }

  write(line: string): boolean {
    const room = BUFFER_BYTES - this.#used;
    // Latin-1 length is a lower bound of the UTF-8 length: encode first, check what was written.
    if (line.length <= room && this.#overflow.length === 0) {
      const written = this.#filling.write(line, this.#used, 'utf8');
      if (Buffer.byteLength(line, 'utf8') === written) {
        this.#used += written;
        this.#schedule();
        return true;
      }
    }
    this.#overflow.push(Buffer.from(line, 'utf8'));
    this.#flush();
    return true;
  }

  /**
   * A line known to be ASCII (the access log's): copied as it is, with no
   * UTF-8 encoding and no measuring of the result.
   */
  writeAscii(line: string): boolean {
    if (line.length > BUFFER_BYTES - this.#used || this.#overflow.length > 0) return this.write(line);
    this.#used += this.#filling.write(line, this.#used, 'latin1');
    this.#schedule();
    return true;
  }

  #schedule(): void {
    if (this.#used >= BUFFER_BYTES / 2) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), FLUSH_MS).unref();
  }

  #flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    // One write at a time, in order: with none under way, the spare buffer is free.
    if (this.#spare === null) return;
    if (this.#used === 0 && this.#overflow.length === 0) return;
    const out = this.#overflow.length ? Buffer.concat([this.#filling.subarray(0, this.#used), ...this.#overflow]) : this.#filling.subarray(0, this.#used);
    const sent = this.#filling;
    this.#filling = this.#spare;
    this.#spare = null;
    this.#used = 0;
    this.#overflow = [];
    this.#writeAll(out, () => {
      this.#spare = sent;
      if (this.#used > 0 || this.#overflow.length) this.#schedule();
    });
  }

  #writeAll(data: Buffer, done: () => void): void {
    write(this.#fd, data, 0, data.length, null, (error, written) => {
      // EAGAIN on a non-blocking pipe, or a short write: go on with the rest.
      if (error && error.code !== 'EAGAIN') return done();
      const rest = data.subarray(error ? 0 : written);
      if (rest.length > 0) return this.#writeAll(rest, done);
      done();
    });
  }

  /**
   * Writes whatever is buffered, now, blocking: for the process's last
   * moment. A batch already handed to the thread pool is not written again:
   * the pool runs it as soon as a thread is free, microseconds after it was
   * queued, so only an exit within that instant can lose it.
   */
  flushSync(): void {
    const pending = [this.#filling.subarray(0, this.#used), ...this.#overflow];
    this.#used = 0;
    this.#overflow = [];
    for (const chunk of pending) {
      let offset = 0;
      while (offset < chunk.length) {
        try {
          offset += writeSync(this.#fd, chunk, offset, chunk.length - offset);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        }
      }
    }
  }
}
