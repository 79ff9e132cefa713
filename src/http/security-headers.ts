import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { HttpSecuritySettings } from '../config/http-security.js';

// Security headers on every response, as helmet words them: no MIME
// sniffing, no referrer, no framing, and a content security policy under
// which an API answer loads nothing at all. The OpenAPI page needs its own
// scripts and styles, and gets a policy of its own (docsPolicy, set on its
// route). Strict-Transport-Security only when SECURE_HSTS_SECONDS turns it
// on: a TLS deployment knows it is one, a development server on plain HTTP
// is not.
//
// helmet works the headers out once, at start-up; each request then only
// copies them. (@fastify/helmet builds helmet's middleware anew for every
// request: on GET /auth/session that took 110 µs of CPU per request against
// 49 µs without it.)

const API_POLICY = {
  defaultSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
};

/** The documentation page: same-origin scripts, styles, images and requests only. */
const DOCS_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

/** The headers helmet sets for `options`, collected from one run of its middleware. */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

function helmetOptions(settings: HttpSecuritySettings, directives: Record<string, string[]>): HelmetOptions {
  const hsts = settings.hstsSeconds > 0 ? { maxAge: settings.hstsSeconds, includeSubDomains: settings.hstsIncludeSubdomains, preload: settings.hstsPreload } : false;
  return {
    contentSecurityPolicy: { useDefaults: false, directives },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: hsts,
  };
}

export function registerSecurityHeaders(app: FastifyInstance, settings: HttpSecuritySettings): void {
  const headers = headersOf(helmetOptions(settings, API_POLICY));
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** A route hook giving the documentation page the policy it needs instead of the API's. */
export function docsPolicy(settings: HttpSecuritySettings): onRequestHookHandler {
  const policy = headersOf(helmetOptions(settings, DOCS_POLICY))['content-security-policy']!;
  return (_request, reply, done) => {
    reply.header('content-security-policy', policy);
    done();
  };
}
