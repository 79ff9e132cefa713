import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { endSessions, listSessions } from '../../flows/account/user-sessions.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authRef, errorRef } from '../schemas.js';

const Sessions = Type.Object({
  status: Type.Integer(),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      user_agent: Type.String(),
      ip: Type.String(),
      created_at: Type.Number({ description: 'Unix time in seconds.' }),
      last_seen_at: Type.Optional(
        Type.Number({ description: 'With USERSESSIONS_TRACK_ACTIVITY: Unix time in seconds of the last request, refreshed at most once a minute.' }),
      ),
      is_current: Type.Boolean(),
    }),
  ),
});
const EndBody = Type.Object({ sessions: Type.Array(Type.Integer(), { description: 'Ids of the sessions to end.' }) });

export function userSessionRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/auth/sessions',
    {
      schema: {
        tags: ['Sessions'],
        summary: 'List sessions',
        description: 'The live sessions of the logged-in user, with the one making this request marked `is_current`. 401 when not logged in.',
        response: { 200: Sessions, 401: authRef, 410: authRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await listSessions(deps, requestContext(request, deps))),
  );
  app.delete(
    '/auth/sessions',
    {
      schema: {
        tags: ['Sessions'],
        summary: 'End sessions',
        description: 'Ends the given sessions of the user: 200 with the sessions left, or 401 (logged out) when the current session was among them. Errors: `required`, `invalid_choice` (an id that is not a live session of this user), with param sessions.',
        body: EndBody,
        response: { 200: Sessions, 400: errorRef, 401: authRef, 410: authRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await endSessions(deps, requestContext(request, deps), request.body.sessions)),
  );
}
