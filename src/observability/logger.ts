import { format } from 'node:util';
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import { BufferedOutput } from './buffered-output.js';

// One JSON object per line on stdout, for every message the process writes:
// requests, start-up, mails printed by the console transport, warnings of
// Node and of dependencies. Credentials never reach a line: headers that
// carry them are censored wherever a request or response is logged, bodies
// are never logged, and a request is described by its route pattern, never
// by its URL (a query string can carry a code, a state or a key).

export type { Logger };

/** Request and response headers that carry credentials. */
export const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-session-token',
  'x-csrftoken',
  'x-api-key',
  'x-signature',
];

const REDACT_PATHS = CREDENTIAL_HEADERS.flatMap((name) => [`req.headers["${name}"]`, `res.headers["${name}"]`, `headers["${name}"]`]);

/** A request as logged anywhere: its method and route, never its URL, headers or body. */
function requestSummary(request: { method?: string; routeOptions?: { url?: string } }) {
  return { method: request.method, route: request.routeOptions?.url ?? null };
}

/** Stdout, buffered (buffered-output.ts): a request pays for encoding its line, not for a system call. */
function stdout(): DestinationStream {
  return new BufferedOutput(1);
}

/**
 * The ISO time of each line, formatted once per millisecond: under load
 * many lines share one, and Date#toISOString is the dearest part of a line.
 */
export function isoTimeOncePerMs(): () => string {
  let last = -1;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== last) {
      last = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

export function createLogger(level: string, to: DestinationStream = stdout()): Logger {
  return pino(
    {
      level,
      timestamp: isoTimeOncePerMs(),
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { req: requestSummary, res: (reply: { statusCode?: number }) => ({ status: reply.statusCode }), err: stdSerializers.err },
    },
    to,
  );
}

/** A logger that writes nothing (tests, the bench). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/**
 * The server process writes nothing but JSON lines: Node's own warnings
 * (deprecations, listener leaks) and whatever a dependency prints with
 * console.* go through the logger instead of plain text beside it.
 */
export function captureProcessOutput(log: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => log.warn({ warning: { name: warning.name, code: (warning as { code?: string }).code } }, warning.message));
  const from = (level: 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]) => log[level]({ source: 'console' }, format(...args));
  console.log = from('info');
  console.info = from('info');
  console.debug = from('debug');
  console.warn = from('warn');
  console.error = from('error');
}
