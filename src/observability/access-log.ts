import { hostname } from 'node:os';
import { symbols, type Logger } from 'pino';
import { isoTimeOncePerMs } from './logger.js';

// The access log's line, one per request, written as pino would write it
// (same fields, same order, same time format) but without pino's general
// path: no child logger per request, no serializers, no redaction walk. Its
// fields cannot carry a credential or a character JSON must escape: the
// method is an HTTP token (Node's parser admits nothing else), the route a
// pattern of our own routes (or "unmatched"), the request id a UUID or a
// proxy's id that request-id.ts admitted ([A-Za-z0-9._:@/+=-]), the client
// one of two words. With the host name escaped to ASCII once, every line is
// ASCII, and the buffered output copies it without encoding it.

export interface AccessLine {
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  client: string | null;
}

type Stream = { write(line: string): unknown; writeAscii?(line: string): unknown };

/** A JSON string literal in ASCII only: anything beyond is escaped as \\uXXXX. */
function asciiJson(value: string): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export class AccessLog {
  readonly #write: (line: string) => unknown;
  readonly #enabled: boolean;
  readonly #time = isoTimeOncePerMs();
  readonly #base: string;
  /** The line's fixed stretches, made once: up to the request id (per millisecond), method and route up to the status, and the end. */
  #head = '';
  #headTime = '';
  readonly #middles = new Map<string, Map<string, string>>();
  readonly #ends = new Map<string | null, string>();

  constructor(log: Logger) {
    const stream = (log as unknown as Record<symbol, Stream>)[symbols.streamSym]!;
    this.#write = stream.writeAscii ? stream.writeAscii.bind(stream) : stream.write.bind(stream);
    this.#enabled = log.isLevelEnabled('info');
    this.#base = `,"pid":${process.pid},"hostname":${asciiJson(hostname())}`;
  }

  write(line: AccessLine): void {
    if (!this.#enabled) return;
    const time = this.#time();
    if (time !== this.#headTime) {
      this.#headTime = time;
      this.#head = `{"level":"info"${time}${this.#base},"request_id":"`;
    }
    this.#write(`${this.#head}${line.requestId}${this.#middle(line.method, line.route)}${line.status},"duration_ms":${Math.round(line.durationMs * 100) / 100}${this.#end(line.client)}`);
  }

  #middle(method: string, route: string): string {
    let byMethod = this.#middles.get(route);
    if (!byMethod) this.#middles.set(route, (byMethod = new Map()));
    let middle = byMethod.get(method);
    if (middle === undefined) byMethod.set(method, (middle = `","method":"${method}","route":"${route}","status":`));
    return middle;
  }

  #end(client: string | null): string {
    let end = this.#ends.get(client);
    if (end === undefined) this.#ends.set(client, (end = `,"client":${client === null ? 'null' : `"${client}"`},"msg":"request"}\n`));
    return end;
  }
}
