import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// Every request gets an id, logged with each of its lines and echoed in the
// X-Request-Id response header. Behind trusted proxies (TRUSTED_PROXY_COUNT
// > 0) the proxy's X-Request-Id is kept, so one id follows a request through
// the proxy's logs and ours; from anyone else the header is ignored, as a
// client could otherwise plant ids (or text) in our logs.

// Printable, no spaces or quotes, of a sane length: what proxies generate (UUIDs, hex, base64).
const ACCEPTED = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdGenerator(trustedProxyCount: number): (request: IncomingMessage) => string {
  if (trustedProxyCount === 0) return () => randomUUID();
  return (request) => {
    const given = request.headers['x-request-id'];
    return typeof given === 'string' && ACCEPTED.test(given) ? given : randomUUID();
  };
}
