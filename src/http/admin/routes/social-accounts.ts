import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import { disconnectSocialAccount, socialAccountsOf } from '../../../flows/admin/social-accounts.js';
import { refuse } from '../caller.js';
import { socialAccountView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id, ok, pathUser, sourceOf, UserParams } from './common.js';

const tags = ['Social accounts'];

export function socialAccountRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/users/:id/social-accounts',
    { schema: { tags, summary: "A user's provider accounts", description: `Provider and uid, oldest first. 404 \`not_found\`. ${COMMON_ERRORS}`, params: UserParams, response: responses({ 200: envelope(Type.Array(Type.Ref('AdminSocialAccount'))) }) } },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      return ok(reply, (await socialAccountsOf(deps, user.id)).map(socialAccountView));
    },
  );

  app.delete(
    '/users/:id/social-accounts/:account',
    {
      schema: {
        tags,
        summary: 'Disconnect a provider account',
        description: `With its stored tokens. Unlike the user, an administrator may remove the last way to log in. Records \`social.disconnected\`. 404 \`not_found\`. ${COMMON_ERRORS}`,
        params: Type.Object({ id: Id, account: Id }),
      },
    },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const removed = await disconnectSocialAccount(deps, sourceOf(deps, request), user, Number(request.params.account));
      if (!removed) return refuse(reply, 404, 'not_found', 'account');
      return ok(reply, { ...socialAccountView(removed), disconnected: true });
    },
  );
}
