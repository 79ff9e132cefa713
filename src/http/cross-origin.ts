import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import type { HttpSecuritySettings } from '../config/http-security.js';

// CORS for clients on other origins (CORS_ALLOWED_ORIGINS; none by default).
// A listed origin may send credentials (the browser client's cookie, for an
// SPA on a sibling subdomain); `*` lets any origin call the API with tokens
// only, never with credentials.

/** What the two clients send: JSON, the app's token or JWT, the browser's CSRF token, the key headers. */
const ALLOWED_HEADERS = ['Content-Type', 'X-Session-Token', 'Authorization', 'X-CSRFToken', 'X-Email-Verification-Key', 'X-Password-Reset-Key'];
/** Response headers a script on another origin may read besides the safelisted ones. */
const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After'];

export async function registerCors(app: FastifyInstance, settings: HttpSecuritySettings): Promise<void> {
  const allowed = settings.corsAllowedOrigins;
  if (allowed !== '*' && allowed.length === 0) return;
  const listed = new Set(allowed === '*' ? [] : allowed);
  await app.register(cors, {
    // Any other origin (or none) gets no CORS headers; a preflight from it
    // falls through to the 405 of an OPTIONS request, in the envelope.
    origin: allowed === '*' ? '*' : (origin, done) => done(null, origin !== undefined && listed.has(origin) ? origin : false),
    credentials: allowed !== '*',
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 3600,
    // An allowed origin's OPTIONS without Access-Control-Request-Method is
    // answered like a preflight instead of with a plain-text 400.
    strictPreflight: false,
  });
}
