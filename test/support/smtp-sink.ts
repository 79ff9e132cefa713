import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** One delivered message: the SMTP envelope plus the decoded subject and bodies. */
export type ReceivedMail = { from: string; to: string[]; subject: string; text: string; html: string; raw: string };

export type MailPredicate = { to?: string; subjectIncludes?: string };

export type SmtpSink = {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** Recipients the sink refuses (550), as a relay refuses a mailbox: the sender's send() rejects. */
  refused: Set<string>;
  /** First mail, already received or still to come, that matches; rejects after `timeoutMs` (default 5000). */
  waitForMail(predicate: MailPredicate, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves once `count` mails in all have arrived; rejects after `timeoutMs` (default 5000). */
  waitForCount(count: number, timeoutMs?: number): Promise<void>;
  clear(): void;
  close(): Promise<void>;
};

type Waiter = { predicate: MailPredicate; resolve: (mail: ReceivedMail) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

/** A real SMTP server on 127.0.0.1, so mail goes through the same transport as in production. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const refused = new Set<string>();
  let waiters: Waiter[] = [];
  let counters: Array<{ count: number; resolve: () => void; timer: NodeJS.Timeout }> = [];

  const server = new SMTPServer({
    authOptional: true,
    // Credentials are accepted as given, so the user:pass URL form can be tested against the sink too.
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A pooled client still connected must not hold close() for the default 30 s.
    closeTimeout: 200,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const envelope = session.envelope;
        const mail: ReceivedMail = {
          from: envelope.mailFrom === false ? '' : envelope.mailFrom.address,
          to: envelope.rcptTo.map((r) => r.address),
          ...parseMessage(Buffer.concat(chunks)),
        };
        mails.push(mail);
        waiters = waiters.filter((w) => {
          if (!matches(mail, w.predicate)) return true;
          clearTimeout(w.timer);
          w.resolve(mail);
          return false;
        });
        counters = counters.filter((c) => {
          if (mails.length < c.count) return true;
          clearTimeout(c.timer);
          c.resolve();
          return false;
        });
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refused,
    waitForMail(predicate, timeoutMs = 5000) {
      const found = mails.find((m) => matches(m, predicate));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w.timer !== timer);
          reject(new Error(`no mail matching ${JSON.stringify(predicate)} within ${timeoutMs} ms; received: ${describe(mails)}`));
        }, timeoutMs);
        waiters.push({ predicate, resolve, reject, timer });
      });
    },
    waitForCount(count, timeoutMs = 5000) {
      if (mails.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          counters = counters.filter((c) => c.timer !== timer);
          reject(new Error(`${mails.length} mails within ${timeoutMs} ms, waiting for ${count}`));
        }, timeoutMs);
        counters.push({ count, resolve, timer });
      });
    },
    clear() {
      mails.length = 0;
    },
    close() {
      for (const w of waiters) {
        clearTimeout(w.timer);
        w.reject(new Error(`SMTP sink closed while waiting for ${JSON.stringify(w.predicate)}`));
      }
      waiters = [];
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function matches(mail: ReceivedMail, p: MailPredicate): boolean {
  if (p.to !== undefined) {
    const to = p.to.toLowerCase();
    if (!mail.to.some((r) => r.toLowerCase() === to)) return false;
  }
  return p.subjectIncludes === undefined || mail.subject.includes(p.subjectIncludes);
}

function describe(mails: ReceivedMail[]): string {
  if (mails.length === 0) return 'nothing';
  return mails.map((m) => `[to ${m.to.join(', ')}: ${JSON.stringify(m.subject)}]`).join(' ');
}

/** Every http(s) URL in a text, in order, so tests can pick the link a mail carries. */
export function extractUrls(text: string): string[] {
  return text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
}

// ---- MIME parsing: just what the mails we send need (RFC 5322 headers, RFC 2047 words,
// multipart bodies, quoted-printable and base64). The message is handled as a latin1
// string, one char per byte, so 8-bit bodies can be turned back into bytes and decoded.

type Part = { headers: Map<string, string>; body: string };

function parseMessage(bytes: Buffer): { subject: string; text: string; html: string; raw: string } {
  const top = splitPart(bytes.toString('latin1'));
  const found = { text: '', html: '' };
  collectBodies(top, found);
  return {
    subject: decodeEncodedWords(top.headers.get('subject') ?? ''),
    text: found.text,
    html: found.html,
    raw: bytes.toString('utf8'),
  };
}

function splitPart(source: string): Part {
  const match = /\r?\n\r?\n/.exec(source);
  const head = match ? source.slice(0, match.index) : source;
  const body = match ? source.slice(match.index + match[0].length) : '';
  const headers = new Map<string, string>();
  // Unfolding (RFC 5322 §2.2.3): a line break followed by white space continues the header.
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // Headers may carry raw UTF-8 (RFC 6532); turn the latin1 bytes back into text.
    if (!headers.has(name)) headers.set(name, Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8'));
  }
  return { headers, body };
}

function parseContentType(value: string | undefined): { type: string; params: Map<string, string> } {
  const [type = '', ...rest] = (value ?? 'text/plain').split(';');
  const params = new Map<string, string>();
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const raw = param.slice(eq + 1).trim();
    params.set(param.slice(0, eq).trim().toLowerCase(), raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw);
  }
  return { type: type.trim().toLowerCase() || 'text/plain', params };
}

function collectBodies(part: Part, found: { text: string; html: string }): void {
  const { type, params } = parseContentType(part.headers.get('content-type'));
  const boundary = params.get('boundary');
  if (type.startsWith('multipart/') && boundary) {
    for (const child of splitMultipart(part.body, boundary)) collectBodies(splitPart(child), found);
    return;
  }
  if (type !== 'text/plain' && type !== 'text/html') return;
  const key = type === 'text/plain' ? 'text' : 'html';
  if (found[key] !== '') return; // the first of each kind wins, as a mail reader would show
  const bytes = decodeTransfer(part.body, part.headers.get('content-transfer-encoding'));
  found[key] = decodeCharset(bytes, params.get('charset')).replace(/\r\n/g, '\n');
}

/** The parts between `--boundary` lines, up to the closing `--boundary--`. */
function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | undefined;
  for (const line of body.split(/\r?\n/)) {
    if (line.trimEnd() === `--${boundary}--`) break;
    if (line.trimEnd() === `--${boundary}`) {
      if (current) parts.push(current.join('\r\n'));
      current = [];
    } else {
      current?.push(line);
    }
  }
  if (current) parts.push(current.join('\r\n'));
  return parts;
}

const HEX_BYTE = /=([0-9A-Fa-f]{2})/g;
const hexByteToChar = (_: string, hex: string) => String.fromCharCode(parseInt(hex, 16));

function decodeTransfer(body: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '7bit').trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
    case 'quoted-printable':
      // Soft line breaks (`=` at the end of a line) join lines; `=XX` is one byte.
      return Buffer.from(
        body.replace(/[ \t]+(?=\r?\n)/g, '').replace(/=\r?\n/g, '').replace(HEX_BYTE, hexByteToChar),
        'latin1',
      );
    default: // 7bit, 8bit, binary: the bytes as they are
      return Buffer.from(body, 'latin1');
  }
}

function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes); // unknown label: UTF-8 is the best guess
  }
}

/**
 * RFC 2047 encoded-words, B and Q. White space between two adjacent encoded-words is
 * dropped (§6.2), and their bytes are joined before decoding, since an encoder may split
 * a multi-byte character across two words.
 */
function decodeEncodedWords(value: string): string {
  const word = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
  let out = '';
  let pending: { charset: string; bytes: Buffer[] } | undefined;
  let last = 0;
  const flush = () => {
    if (pending) out += decodeCharset(Buffer.concat(pending.bytes), pending.charset);
    pending = undefined;
  };
  for (const m of value.matchAll(word)) {
    const between = value.slice(last, m.index);
    // RFC 2231 allows a language after the charset: `utf-8*en`.
    const charset = m[1]!.split('*')[0]!.toLowerCase();
    const bytes =
      m[2]!.toUpperCase() === 'B'
        ? Buffer.from(m[3]!, 'base64')
        : Buffer.from(m[3]!.replace(/_/g, ' ').replace(HEX_BYTE, hexByteToChar), 'latin1');
    const adjacent = last > 0 && /^\s*$/.test(between);
    if (adjacent && pending?.charset === charset) {
      pending.bytes.push(bytes);
    } else {
      flush();
      if (!adjacent) out += between;
      pending = { charset, bytes: [bytes] };
    }
    last = m.index + m[0].length;
  }
  flush();
  return out + value.slice(last);
}
