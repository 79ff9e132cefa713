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

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/;

export function registerKeyAuth(app: FastifyInstance, deps: Deps): void {
  app.decorateRequest('admin', null);
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const presented = typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
    const now = deps.clock.now();
    const check = presented ? await authenticateAdminKey(deps, presented, now) : { ok: false as const };
    if (!check.ok) {
      const limit = await deps.limiter.consume('admin_key_failed', { ip: request.ip });
      if (!limit.ok) {
        reply.header('retry-after', String(limit.retryAfterSeconds));
        return refuse(reply, 429, 'too_many_requests');
      }
      reply.header('www-authenticate', 'Bearer realm="admin"');
      return refuse(reply, 401, 'invalid_api_key');
    }
    if (WRITE_METHODS.has(request.method) && check.key.scope !== 'write') return refuse(reply, 403, 'insufficient_scope');
    const client = { ip: request.ip, userAgent: userAgentOf(request) };
    request.admin = { source: (at) => adminApiSource(client, at, check.key.id) };
  });
}
