import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import { liveSessionsOf, revokeSessions } from '../../../flows/admin/sessions.js';
import { refuse } from '../caller.js';
import { sessionView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id, ok, pathUser, sourceOf, UserParams } from './common.js';

const tags = ['Sessions'];

export function sessionRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/users/:id/sessions',
    {
      schema: {
        tags,
        summary: "A user's live sessions",
        description: `Oldest first, with device (user agent, IP) and last use. 404 \`not_found\`. ${COMMON_ERRORS}`,
        params: UserParams,
        response: responses({ 200: envelope(Type.Array(Type.Ref('AdminSession'))) }),
      },
    },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      return ok(reply, (await liveSessionsOf(deps, user.id, deps.clock.now())).map(sessionView));
    },
  );

  app.delete(
    '/users/:id/sessions',
    {
      schema: {
        tags,
        summary: "Revoke all of a user's sessions",
        description: `Cookies, session tokens and refresh tokens stop working at once. Records \`session.revoked\`. 404 \`not_found\`. ${COMMON_ERRORS}`,
        params: UserParams,
      },
    },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const result = await revokeSessions(deps, sourceOf(deps, request), user.id, 'all');
      return ok(reply, { sessions_ended: result.ok ? result.ended : 0 });
    },
  );

  app.delete(
    '/users/:id/sessions/:session',
    {
      schema: {
        tags,
        summary: 'Revoke one session',
        description: `Records \`session.revoked\`. 404 \`not_found\` (no such user, or not a live session of theirs). ${COMMON_ERRORS}`,
        params: Type.Object({ id: Id, session: Id }),
      },
    },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const result = await revokeSessions(deps, sourceOf(deps, request), user.id, [Number(request.params.session)]);
      if (!result.ok) return refuse(reply, 404, 'not_found', 'session');
      return ok(reply, { sessions_ended: result.ended });
    },
  );
}
