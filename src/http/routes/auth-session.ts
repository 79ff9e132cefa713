import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../flows/context.js';
import { currentSession, logout } from '../../flows/auth/current-session.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authResponses } from '../schemas.js';

export function sessionRoutes(app: FastifyInstance, deps: Deps): void {
  app.get(
    '/auth/session',
    {
      schema: {
        tags: ['Authentication: Current Session'],
        summary: 'Authentication state',
        description: '200 with the user and how they authenticated; 401 with the flows to take when not authenticated; 410 (app clients) when the session token is no longer valid and should be dropped.',
        response: authResponses(),
      },
    },
    // Not async: a lookup answered from memory then needs no promise at all.
    (request, reply) => send(deps, request, reply, currentSession(requestContext(request, deps))),
  );
  app.delete(
    '/auth/session',
    {
      schema: {
        tags: ['Authentication: Current Session'],
        summary: 'Log out',
        description: 'Ends the session; its cookie or token stops working immediately. Answers 401 with the flows of a signed-out visitor.',
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await logout(deps, requestContext(request, deps))),
  );
}
