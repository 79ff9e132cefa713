import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { changePassword } from '../../flows/password/account-password.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authResponses } from '../schemas.js';

const ChangePasswordBody = Type.Object({
  current_password: Type.Optional(Type.String({ description: 'Omit only when the account has no password yet.' })),
  new_password: Type.String({ minLength: 1 }),
});

export function accountPasswordRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/account/password/change',
    {
      schema: {
        tags: ['Account: Password'],
        summary: 'Change the password',
        description: 'Ends every other session of the account; this session gets a new key (a new `session_token` for apps). Errors: `enter_current_password`, `same_as_current`, `required`, and the password rules (`password_too_short`, ...). 401 when not logged in; 429 when rate-limited.',
        body: ChangePasswordBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await changePassword(deps, requestContext(request, deps), request.body)),
  );
}
