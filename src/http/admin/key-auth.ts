import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../flows/context.js';
import { adminApiSource } from '../../audit/recorder.js';
import { authenticateAdminKey } from '../../flows/admin/api-keys.js';
import { userAgentOf } from '../client-auth.js';
import { refuse, WRITE_METHODS } from './caller.js';

// The admin API's authentication: `Authorization: Bearer <key>`, the key
// looked up by its hash on every request (no cache: a revoked key is refused
// at once on every instance). A missing, unknown, expired or revoked key is
// a 401 and counts against the client's address (admin_key_failed), so keys
// cannot be guessed at speed; a read key may only read.

// The scheme is case-insensitive (RFC 9110, 11.1), and one or more spaces may follow it.
const BEARER = /^bearer +([A-Za-z0-9_-]{1,200})$/i;

export function registerKeyAuth(app: FastifyInstance, deps: Deps): void {
  app.decorateRequest('admin', null);
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const presented = typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
    const now = deps.clock.now();
    // The limit is passed before the key is looked at: an address that has
    // spent it is refused even with a right key, or guessing would go on
    // with every answer telling a right guess (200) from a wrong one (429).
    // A right key gives its point back.
    const attempt = await deps.limiter.guarded('admin_key_failed', { ip: request.ip }, async () => {
      const check = presented ? await authenticateAdminKey(deps, presented, now) : ({ ok: false } as const);
      return { succeeded: check.ok, value: check };
    });
    if (!attempt.ok) {
      reply.header('retry-after', String(attempt.retryAfterSeconds));
      return refuse(deps.i18n, request, reply, 429, 'too_many_requests');
    }
    const check = attempt.value;
    if (!check.ok) {
      reply.header('www-authenticate', 'Bearer realm="admin"');
      return refuse(deps.i18n, request, reply, 401, 'invalid_api_key');
    }
    if (WRITE_METHODS.has(request.method) && check.key.scope !== 'write') return refuse(deps.i18n, request, reply, 403, 'insufficient_scope');
    const client = { ip: request.ip, userAgent: userAgentOf(request) };
    request.admin = { source: (at) => adminApiSource(client, at, check.key.id), userId: null, sessionId: null };
  });
}
