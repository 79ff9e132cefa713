import { Type } from 'typebox';
import type { Counted } from '../../outcome-metrics.js';
import { providerToken, ProviderTokenInput } from '../../../flows/social/provider-token.js';
import { providerSignup, providerSignupInfo, ProviderSignupInput } from '../../../flows/social/social-signup.js';
import { disconnectProviderAccount, DisconnectInput, listProviderAccounts } from '../../../flows/social/connected-accounts.js';
import { endpoint, only } from '../../endpoint.js';
import { authRef, authResponses, errorRef, statusRef } from '../../schemas.js';

// flows/social: the JSON endpoints of social login, for both clients. The
// redirect flow (a browser navigation) and the provider callbacks: navigation.ts.

/** What the metrics count for a login through a provider (here and at the callbacks). */
export const SOCIAL_LOGIN: Counted = { kind: 'login', method: 'social' };

const ProviderAccount = Type.Object({
  uid: Type.String({ description: 'The account\'s id at the provider.' }),
  provider: Type.Ref('Provider'),
  display: Type.String({ description: 'A name for the account, from what the provider said.' }),
});
const ProviderAccounts = Type.Object({ status: Type.Integer(), data: Type.Array(ProviderAccount) });

const SignupInfo = Type.Object({
  status: Type.Integer(),
  data: Type.Object({
    user: Type.Object({ display: Type.String(), username: Type.Optional(Type.String()), has_usable_password: Type.Boolean() }),
    account: ProviderAccount,
    email: Type.Array(Type.Object({ email: Type.String(), primary: Type.Boolean(), verified: Type.Boolean() })),
  }),
});

const tags = ['Authentication: Providers'];
const accountTags = ['Account: Providers'];

/** Only when social login is on (SOCIALACCOUNT_ENABLED). */
export const social = only(({ config }) => config.social.enabled, [
  endpoint({
    method: 'POST',
    path: '/auth/provider/token',
    tags,
    summary: 'Log in (or connect) with provider tokens',
    description:
      'Tokens the client obtained from the provider itself (a mobile SDK, One Tap). OpenID Connect, Google, Apple and Microsoft take an `id_token` (signature by the provider\'s keys, iss, aud/azp, exp, iat; a token with a `jti` is accepted once); GitHub, GitLab and Discord an `access_token`, checked to belong to the app; Facebook either (an access token checked with debug_token, or a Limited Login ID token). 200 when logged in (or connected), 401 with a pending flow (`verify_email`, `provider_signup`, a second factor). Errors (param token unless noted): `required` (provider, process, token), `invalid_choice` (process), `client_id_required`, `token_authentication_not_supported` (param provider: a provider that takes no tokens, such as OAuth 1.0a ones, Steam, Telegram), `token_required`, `invalid_token`, `connected_other` (no param: the account belongs to another user), `account_inactive`. 403 when signup is closed for a new user, or when connecting without being logged in; 429 when the per-IP `login` limit is reached.',
    body: ProviderTokenInput,
    response: authResponses({ 503: errorRef }),
    counts: SOCIAL_LOGIN,
    run: (deps, ctx, { body }) => providerToken(deps, ctx, body),
  }),
  endpoint({
    method: 'GET',
    path: '/auth/provider/signup',
    tags,
    summary: 'The pending provider signup',
    description: 'What the provider gave for a signup that needs more (no address, or one that is taken): the user so far, the provider account and its addresses. 409 when no provider signup is pending; 403 when signup is closed.',
    response: { 200: SignupInfo, 403: statusRef, 409: statusRef },
    run: (deps, ctx) => providerSignupInfo(deps, ctx),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/provider/signup',
    tags,
    summary: 'Complete a provider signup',
    description:
      'The signup form minus the password: `email` (and `username` when usernames are collected). 200 when signed up and logged in; 401 with `verify_email` pending under mandatory verification (also, without revealing it, when the address already has an account: the pending signup then ends and the owner is told by mail). Errors: `required`, `invalid`, `max_length` (email, username), `email_taken` (only without enumeration prevention), `username_taken`, `username_blacklisted`. 409 when no provider signup is pending; 403 when signup is closed; 429 when the per-IP `signup` limit is reached.',
    body: ProviderSignupInput,
    response: authResponses({ 503: errorRef }),
    run: (deps, ctx, { body }) => providerSignup(deps, ctx, body),
  }),
  endpoint({
    method: 'GET',
    path: '/account/providers',
    tags: accountTags,
    summary: 'Connected provider accounts',
    description: 'The provider accounts connected to the logged-in user. 401 when not logged in.',
    response: { 200: ProviderAccounts, 401: authRef, 410: authRef },
    run: (deps, ctx) => listProviderAccounts(deps, ctx),
  }),
  endpoint({
    method: 'DELETE',
    path: '/account/providers',
    tags: accountTags,
    summary: 'Disconnect a provider account',
    description:
      'Disconnects `{provider, account}` (the account\'s uid) and answers the remaining list. Refused when it is the last way to log in: `no_password` (no usable password), `no_verified_email` (under mandatory verification, no verified address to reset the password with), `disconnect_last` (SOCIALACCOUNT_ONLY). Errors: `required` (provider, account), `account_not_found`; the refusals and `account_not_found` carry no param. 401 when not logged in.',
    body: DisconnectInput,
    response: { 200: ProviderAccounts, 400: errorRef, 401: authRef, 410: authRef },
    run: (deps, ctx, { body }) => disconnectProviderAccount(deps, ctx, body),
  }),
]);
