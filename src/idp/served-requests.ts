import type { IncomingMessage } from 'node:http';
import type { Logger } from '../kernel/log.js';

// What the http layer knows of a request it hands to the provider and the
// provider's context does not: the request's logger, bound to its request
// id, and the client's address as the trusted proxies give it (Koa's
// ctx.ip would take the leftmost X-Forwarded-For, which the client writes).

export interface ServedRequest {
  log: Logger;
  ip: string;
}

const served = new WeakMap<IncomingMessage, ServedRequest>();

export function serving(request: IncomingMessage, what: ServedRequest): void {
  served.set(request, what);
}

export function servedRequest(request: IncomingMessage | undefined): ServedRequest | undefined {
  return request ? served.get(request) : undefined;
}
