import { Type } from 'typebox';
import { disconnectSocialAccount, providerName, socialAccountsOf } from '../../../flows/admin/social-accounts.js';
import { ok, refused, userEndpoint } from '../endpoint.js';
import { socialAccountView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id, UserParams } from './common.js';

// flows/admin/social-accounts.ts: a user's provider accounts, and disconnecting one.

const tags = ['Social accounts'];

export const socialAccounts = [
  userEndpoint({
    method: 'GET',
    path: '/users/:id/social-accounts',
    tags,
    summary: "A user's provider accounts",
    description: `Provider (its id, and \`provider_name\`: the configured app's name, else the provider type's) and uid, oldest first. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    response: responses({ 200: envelope(Type.Array(Type.Ref('AdminSocialAccount'))) }),
    run: async (deps, _call, _input, user) => ok((await socialAccountsOf(deps, user.id)).map((account) => socialAccountView(account, providerName(deps, account.provider)))),
  }),
  userEndpoint({
    method: 'DELETE',
    path: '/users/:id/social-accounts/:account',
    tags,
    summary: 'Disconnect a provider account',
    description: `With its stored tokens. Unlike the user, an administrator may remove the last way to log in. Records \`social.disconnected\`. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: Type.Object({ id: Id, account: Id }),
    run: async (deps, call, { params }, user) => {
      const removed = await disconnectSocialAccount(deps, call.source(), user, Number(params.account));
      return removed ? ok({ ...socialAccountView(removed, providerName(deps, removed.provider)), disconnected: true }) : refused(404, 'not_found', 'account');
    },
  }),
];
