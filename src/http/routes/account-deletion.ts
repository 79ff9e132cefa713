import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../flows/context.js';
import { deleteAccount } from '../../flows/account/account-deletion.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authRef } from '../schemas.js';

export function accountDeletionRoutes(app: FastifyInstance, deps: Deps): void {
  app.delete(
    '/account',
    {
      schema: {
        tags: ['Account: Deletion'],
        summary: 'Delete the account',
        description:
          'Not part of the django-allauth API. Deletes the logged-in user\'s account for good: every session ends (tokens bound to them stop working), the email addresses become free for a new signup, and the deletion is recorded. Needs a recent authentication: 401 with the `reauthenticate` flow when the last one is older than ACCOUNT_REAUTHENTICATION_TIMEOUT (reauthenticate, then repeat). Success answers 401 with the flows of a signed-out visitor; 401 also when not logged in.',
        response: { 401: authRef, 410: authRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await deleteAccount(deps, requestContext(request, deps))),
  );
}
