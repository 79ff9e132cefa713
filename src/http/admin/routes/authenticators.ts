import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import { authenticatorsOf, removeAuthenticator } from '../../../flows/admin/authenticators.js';
import { refuse } from '../caller.js';
import { authenticatorView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id, ok, pathUser, sourceOf, UserParams } from './common.js';

const tags = ['MFA authenticators'];

export function authenticatorRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/users/:id/authenticators',
    { schema: { tags, summary: "A user's second factors", description: `TOTP, recovery codes, security keys and passkeys: type, dates, a key's name; never a secret or code. 404 \`not_found\`. ${COMMON_ERRORS}`, params: UserParams, response: responses({ 200: envelope(Type.Array(Type.Ref('AdminAuthenticator'))) }) } },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      return ok(reply, (await authenticatorsOf(deps, user.id)).map(authenticatorView));
    },
  );

  app.delete(
    '/users/:id/authenticators/:authenticator',
    {
      schema: {
        tags,
        summary: 'Remove a second factor',
        description: `As when the user removes one, the recovery codes go too once no TOTP or WebAuthn authenticator is left; \`data\` lists every one that went. Records \`authenticator.removed\` for each. Sessions stay logged in. 404 \`not_found\`. ${COMMON_ERRORS}`,
        params: Type.Object({ id: Id, authenticator: Id }),
      },
    },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const removed = await removeAuthenticator(deps, sourceOf(deps, request), user.id, Number(request.params.authenticator));
      if (!removed) return refuse(reply, 404, 'not_found', 'authenticator');
      return ok(reply, removed.map((a) => ({ id: a.id, type: a.type })));
    },
  );
}
