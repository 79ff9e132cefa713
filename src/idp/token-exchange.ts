import { errors } from 'oidc-provider';
import type { Db } from '../store/db.js';
import { payloadIssuer } from '../store/idp-payload-issuer.js';
import { hashSecret } from '../security/secrets.js';
import type { ResourceServerInfo } from './resource-servers.js';

// Token exchange (RFC 8693) for a service acting for a user: a confidential
// client allowed the grant presents an access token we issued to a user
// (the subject token), and optionally its own client credentials token (the
// actor token), and gets a new access token for the same user, with a scope
// no wider than the subject token's and its own, for a resource of
// IDP_OIDC_RESOURCE_SERVERS when it names one (`resource` or `audience`),
// and an `act` claim naming itself (RFC 8693 section 4.1), nested over the
// subject token's own `act`. The claim is in the token when it is a JWT
// and in introspection's answer when it is opaque.

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const PARAMS = ['subject_token', 'subject_token_type', 'actor_token', 'actor_token_type', 'requested_token_type', 'resource', 'audience', 'scope'];

export interface TokenExchangeDeps {
  db: Db;
  issuer: string;
  now: () => number;
  /** The provider's findAccount (account.ts): undefined for a user who is not active. */
  findAccount(ctx: unknown, sub: string): Promise<{ accountId: string } | undefined>;
  /** The resource server a client may get tokens for (resource-servers.ts), or undefined. */
  resourceServer(indicator: string, client: { scope?: string }): ResourceServerInfo | undefined;
}

type Act = { sub: string; act?: Act };

/** Registers the grant on the provider. */
export function tokenExchange(provider: any, deps: TokenExchangeDeps): void {
  // The token endpoint refuses a grant the client does not list with invalid_request before any
  // handler runs; RFC 6749 section 5.2 says unauthorized_client, which the handler answers.
  const allowed = provider.Client.prototype.grantTypeAllowed;
  provider.Client.prototype.grantTypeAllowed = function (this: unknown, type: string) {
    return type === TOKEN_EXCHANGE || allowed.call(this, type);
  };
  const handler = async (ctx: any) => {
    const { client, params } = ctx.oidc;
    if (!allowed.call(client, TOKEN_EXCHANGE) || client.clientAuthMethod === 'none') throw new errors.UnauthorizedClient('the client is not allowed the token-exchange grant');
    if (!params.subject_token || !params.subject_token_type) throw new errors.InvalidRequest('subject_token and subject_token_type are required');
    if (params.subject_token_type !== ACCESS_TOKEN_TYPE) throw new errors.InvalidRequest('subject_token_type must be urn:ietf:params:oauth:token-type:access_token');
    if (params.requested_token_type !== undefined && params.requested_token_type !== ACCESS_TOKEN_TYPE) throw new errors.InvalidRequest('only access tokens are issued');

    const subject = await provider.AccessToken.find(params.subject_token);
    // A token of another issuer (host) here shares the database, not the trust.
    if (!subject?.isValid || !subject.accountId || (await payloadIssuer(deps.db, 'AccessToken', hashSecret(params.subject_token))) !== deps.issuer) {
      throw new errors.InvalidGrant('subject_token is invalid, expired or revoked');
    }
    if (subject.grantId && !(await provider.Grant.find(subject.grantId))) throw new errors.InvalidGrant('subject_token is invalid, expired or revoked');
    const account = await deps.findAccount(ctx, subject.accountId);
    if (!account) throw new errors.InvalidGrant('the subject token\'s user is not active');
    await checkActor(provider, client.clientId, params);

    const resource = oneTarget(params.resource) ?? oneTarget(params.audience) ?? (typeof subject.aud === 'string' ? subject.aud : undefined);
    const server = resource === undefined ? undefined : deps.resourceServer(resource, client);
    if (resource !== undefined && !server) throw new errors.InvalidTarget();
    const scope = exchangedScope(params.scope, subject.scopes, new Set(String(client.scope ?? '').split(' ')), server);

    const act: Act = { sub: client.clientId, ...(subject.extra?.act ? { act: subject.extra.act } : {}) };
    const token = new provider.AccessToken({ accountId: subject.accountId, client, gty: 'token_exchange', scope: scope || undefined, extra: { act } });
    if (server) token.resourceServer = new provider.ResourceServer(resource, server);
    // Never outlives the token it was exchanged for.
    const remaining = subject.exp - Math.floor(deps.now() / 1000);
    if (remaining < token.expiration) token.expiresIn = Math.max(1, remaining);
    // A grant of the acting client's own, as long-lived as the token, so that introspection and userinfo (which check
    // a token's grant) accept it.
    const grant = new provider.Grant({ accountId: subject.accountId, clientId: client.clientId, expiresIn: token.expiration });
    if (resource && scope) grant.addResourceScope(resource, scope);
    else if (scope) grant.addOIDCScope(scope);
    token.grantId = await grant.save();
    ctx.oidc.entity('Account', account);
    ctx.oidc.entity('AccessToken', token);
    const value = await token.save();
    ctx.body = {
      access_token: value,
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: token.tokenType,
      expires_in: token.expiration,
      ...(token.scope ? { scope: token.scope } : {}),
    };
  };
  provider.registerGrantType(TOKEN_EXCHANGE, handler, PARAMS, ['resource', 'audience']);
}

/** The actor token, when given, is the acting client's own client credentials token. */
async function checkActor(provider: any, clientId: string, params: Record<string, string | undefined>): Promise<void> {
  if (params.actor_token === undefined) {
    if (params.actor_token_type !== undefined) throw new errors.InvalidRequest('actor_token_type without actor_token');
    return;
  }
  if (params.actor_token_type !== ACCESS_TOKEN_TYPE) throw new errors.InvalidRequest('actor_token_type must be urn:ietf:params:oauth:token-type:access_token');
  const actor = await provider.ClientCredentials.find(params.actor_token);
  if (!actor?.isValid || actor.clientId !== clientId) throw new errors.InvalidGrant('actor_token is invalid, expired, or not the client\'s own');
}

/** A single resource or audience (RFC 8693 allows several; one token has one audience here). */
function oneTarget(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) {
    if (value.length > 1) throw new errors.InvalidTarget('only one resource or audience may be requested');
    return value[0];
  }
  return value;
}

/**
 * The new token's scope: what is asked (all of the subject token's by
 * default), which may not exceed the subject token's nor the client's
 * (invalid_scope), narrowed to the resource's scopes for a resource.
 */
function exchangedScope(requested: string | undefined, subjectScopes: Set<string>, clientScopes: Set<string>, server: ResourceServerInfo | undefined): string {
  let scopes: string[];
  if (requested === undefined) {
    scopes = [...subjectScopes].filter((scope) => clientScopes.has(scope));
  } else {
    scopes = [...new Set(requested.split(' ').filter(Boolean))];
    const beyond = scopes.find((scope) => !subjectScopes.has(scope) || !clientScopes.has(scope));
    if (beyond) throw new errors.InvalidScope('requested scope exceeds the subject token\'s or the client\'s', beyond);
  }
  if (server) {
    const available = new Set(server.scope.split(' '));
    scopes = scopes.filter((scope) => available.has(scope));
  }
  return scopes.join(' ');
}

/** extraTokenClaims: keeps the claims a grant put on its token (the act claim above); none for the others. */
export const keepExtraClaims = async (_ctx: unknown, token: { extra?: Record<string, unknown> }) => token.extra;
