import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { HttpSecuritySettings } from '../config/http-security.js';
import type { BrandingCspSources } from '../config/branding-csp.js';

// Security headers on every response, as helmet words them: no MIME
// sniffing, no referrer, no framing, no caching, and a content security
// policy under which an API answer loads nothing at all. The OpenAPI page
// needs its own scripts and styles, and gets a policy of its own (docsPolicy,
// set on its route) with helmet's complete set. Strict-Transport-Security
// only when SECURE_HSTS_SECONDS turns it on: a TLS deployment knows it is
// one, a development server on plain HTTP is not.
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

/**
 * helmet's headers that only mean something for an HTML document or to a
 * retired browser or plugin (IE8's download prompt, the XSS auditor that
 * browsers removed, Flash's and Acrobat's cross-domain policies, DNS
 * prefetching and agent clusters of a document). A JSON answer goes without
 * them, as OWASP's REST Security Cheat Sheet lists an API's headers: about
 * 150 bytes less on every response.
 */
const DOCUMENT_ONLY = ['x-xss-protection', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-dns-prefetch-control', 'origin-agent-cluster'];

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

/**
 * The headers every answer starts with, set in one hook when the request
 * arrives (worked out once, here): the security headers, no caching, and
 * the request's id (X-Request-Id).
 */
export function registerResponseHeaders(app: FastifyInstance, settings: HttpSecuritySettings): void {
  // Built without `delete`, which would leave an object in dictionary mode: each request reads this one's properties.
  const apiHeaders = Object.entries(headersOf(helmetOptions(settings, API_POLICY))).filter(([name]) => !DOCUMENT_ONLY.includes(name));
  const headers: Record<string, string> = Object.fromEntries([...apiHeaders, ['cache-control', 'no-store']]);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
}

/**
 * A route hook giving the documentation page helmet's whole set, with the policy it needs instead of the API's;
 * `extra` adds origins a page needs beyond its own (the console's brand: brandingCspSources).
 */
export function docsPolicy(settings: HttpSecuritySettings, extra: Partial<BrandingCspSources> = {}): onRequestHookHandler {
  const directives = {
    ...DOCS_POLICY,
    imgSrc: [...DOCS_POLICY.imgSrc, ...(extra.img ?? [])],
    styleSrc: [...DOCS_POLICY.styleSrc, ...(extra.style ?? [])],
    fontSrc: [...DOCS_POLICY.fontSrc, ...(extra.font ?? [])],
  };
  const headers = headersOf(helmetOptions(settings, directives));
  return (_request, reply, done) => {
    reply.headers(headers);
    done();
  };
}
