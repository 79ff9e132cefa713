import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { providerToken } from '../../flows/social/provider-token.js';
import { providerSignup, providerSignupInfo } from '../../flows/social/social-signup.js';
import { disconnectProviderAccount, listProviderAccounts } from '../../flows/social/connected-accounts.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authRef, authResponses, errorRef, statusRef } from '../schemas.js';

// The JSON endpoints of social login, for both clients. The redirect flow
// (a browser navigation) and the provider callbacks: social-redirect.ts.

const ProviderAccount = Type.Object({
  uid: Type.String({ description: 'The account\'s id at the provider.' }),
  provider: Type.Ref('Provider'),
  display: Type.String({ description: 'A name for the account, from what the provider said.' }),
});
const ProviderAccounts = Type.Object({ status: Type.Integer(), data: Type.Array(ProviderAccount) });

const TokenBody = Type.Object({
  provider: Type.Optional(Type.String({ description: 'The provider id (see /config).' })),
  process: Type.Optional(Type.String({ description: '`login` or `connect` (to the logged-in account).' })),
  // Checked by the flow, not the schema: a token that is not an object answers invalid_token, as the reference.
  token: Type.Optional(
    Type.Unknown({ description: 'An object: `client_id` (the app\'s client id, required) and `id_token` and/or `access_token` (strings).' }),
  ),
});

const SignupBody = Type.Object({
  email: Type.Optional(Type.String()),
  username: Type.Optional(Type.String({ description: 'When ACCOUNT_SIGNUP_FIELDS has username.' })),
});

const SignupInfo = Type.Object({
  status: Type.Integer(),
  data: Type.Object({
    user: Type.Object({ display: Type.String(), username: Type.Optional(Type.String()), has_usable_password: Type.Boolean() }),
    account: ProviderAccount,
    email: Type.Array(Type.Object({ email: Type.String(), primary: Type.Boolean(), verified: Type.Boolean() })),
  }),
});

const DisconnectBody = Type.Object({
  provider: Type.Optional(Type.String()),
  account: Type.Optional(Type.String({ description: 'The uid of the account to disconnect.' })),
});

export function socialRoutes(scope: FastifyInstance, deps: Deps): void {
  if (!deps.config.social.enabled) return;
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Authentication: Providers'];
  app.post(
    '/auth/provider/token',
    {
      schema: {
        tags,
        summary: 'Log in (or connect) with provider tokens',
        description:
          'Tokens the client obtained from the provider itself (a mobile SDK, One Tap). OpenID Connect, Google, Apple and Microsoft take an `id_token` (signature by the provider\'s keys, iss, aud/azp, exp, iat; a token with a `jti` is accepted once); GitHub, GitLab and Discord an `access_token`, checked to belong to the app. 200 when logged in (or connected), 401 with a pending flow (`verify_email`, `provider_signup`, a second factor). Errors (param token unless noted): `required` (provider, process, token), `invalid_choice` (process), `client_id_required`, `token_required`, `invalid_token`, `connected_other` (no param: the account belongs to another user), `account_inactive`. 403 when signup is closed for a new user, or when connecting without being logged in; 429 when the per-IP `login` limit is reached.',
        body: TokenBody,
        response: authResponses({ 503: errorRef }),
      },
    },
    async (request, reply) => send(deps, request, reply, await providerToken(deps, requestContext(request, deps), request.body)),
  );
  app.get(
    '/auth/provider/signup',
    {
      schema: {
        tags,
        summary: 'The pending provider signup',
        description: 'What the provider gave for a signup that needs more (no address, or one that is taken): the user so far, the provider account and its addresses. 409 when no provider signup is pending; 403 when signup is closed.',
        response: { 200: SignupInfo, 403: statusRef, 409: statusRef },
      },
    },
    async (request, reply) => send(deps, request, reply, providerSignupInfo(deps, requestContext(request, deps))),
  );
  app.post(
    '/auth/provider/signup',
    {
      schema: {
        tags,
        summary: 'Complete a provider signup',
        description:
          'The signup form minus the password: `email` (and `username` when usernames are collected). 200 when signed up and logged in; 401 with `verify_email` pending under mandatory verification (also, without revealing it, when the address already has an account: the pending signup then ends and the owner is told by mail). Errors: `required`, `invalid`, `max_length` (email, username), `email_taken` (only without enumeration prevention), `username_taken`, `username_blacklisted`. 409 when no provider signup is pending; 403 when signup is closed; 429 when the per-IP `signup` limit is reached.',
        body: SignupBody,
        response: authResponses({ 503: errorRef }),
      },
    },
    async (request, reply) => send(deps, request, reply, await providerSignup(deps, requestContext(request, deps), request.body)),
  );
  const accountTags = ['Account: Providers'];
  app.get(
    '/account/providers',
    {
      schema: {
        tags: accountTags,
        summary: 'Connected provider accounts',
        description: 'The provider accounts connected to the logged-in user. 401 when not logged in.',
        response: { 200: ProviderAccounts, 401: authRef, 410: authRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await listProviderAccounts(deps, requestContext(request, deps))),
  );
  app.delete(
    '/account/providers',
    {
      schema: {
        tags: accountTags,
        summary: 'Disconnect a provider account',
        description:
          'Disconnects `{provider, account}` (the account\'s uid) and answers the remaining list. Refused when it is the last way to log in: `no_password` (no usable password), `no_verified_email` (under mandatory verification, no verified address to reset the password with), `disconnect_last` (SOCIALACCOUNT_ONLY). Errors: `required` (provider, account), `account_not_found`; the refusals and `account_not_found` carry no param. 401 when not logged in.',
        body: DisconnectBody,
        response: { 200: ProviderAccounts, 400: errorRef, 401: authRef, 410: authRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await disconnectProviderAccount(deps, requestContext(request, deps), request.body)),
  );
}
