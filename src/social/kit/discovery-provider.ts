import * as oidc from 'openid-client';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { ProviderError, type Identity, type Provider, type ProviderContext } from '../provider-type.js';
import { stringOption } from '../app.js';
import { clientAuth, discoveredServer, fixedServer, type ClientAuthMethod } from './servers.js';
import { authorizationUrl, exchangeCode, isOpenIdRequest, scopes } from './authorization.js';
import { remoteKeys, signingAlgorithms, verifyIdToken, type VerifiedIdToken } from './id-token.js';
import { oidcIdentity } from './claims.js';
import { accountDisplay } from './display.js';
import { cachedFor } from './cached.js';

// A provider whose endpoints come from an OpenID Connect discovery document:
// openid_connect apps, and Google and Apple with their defaults (Microsoft
// uses the ID token check alone). The redirect flow redeems the code (and
// reads userinfo); the token flow checks an ID token against the published keys.

/** The reference's token_auth_method default: Basic only when discovery offers it and not post. */
export function defaultClientAuth(context: ProviderContext): (server: oidc.ServerMetadata) => oidc.ClientAuth {
  return (server) => {
    const configured = stringOption(context.app, 'token_auth_method') as ClientAuthMethod | undefined;
    const supported = server.token_endpoint_auth_methods_supported ?? [];
    const basic = supported.includes('client_secret_basic') && !supported.includes('client_secret_post');
    return clientAuth(context, configured ?? (basic ? 'client_secret_basic' : 'client_secret_post'));
  };
}

/** Userinfo when it was fetched (it usually says more), else the ID token's claims, else the data itself (token flow). */
function pickClaims(extraData: Record<string, unknown>): Record<string, unknown> {
  for (const key of ['userinfo', 'id_token']) {
    const value = extraData[key];
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  }
  return extraData;
}

/**
 * The token flow's check of an ID token against the provider's discovered
 * keys and issuer; `issuers` overrides the issuer (Google's two spellings,
 * Microsoft's tenants), `audiences` the client ids (Apple takes several).
 */
export function idTokenCheck(
  context: ProviderContext,
  server: () => Promise<oidc.Configuration>,
  options: { audiences?: readonly string[]; issuers?: (discovered: string, claims: JWTPayload) => string | null | readonly string[]; keys?: JWTVerifyGetKey } = {},
): (idToken: string) => Promise<VerifiedIdToken | null> {
  const keys = cachedFor(60 * 60_000, async () => {
    const metadata = (await server()).serverMetadata();
    return { keys: options.keys ?? remoteKeys(metadata.jwks_uri!, context.timeoutSeconds), metadata };
  });
  return async (idToken) => {
    const { keys: getKey, metadata } = await keys();
    return verifyIdToken(idToken, {
      keys: getKey,
      algorithms: signingAlgorithms(metadata.id_token_signing_alg_values_supported),
      issuer: (claims) => (options.issuers ? options.issuers(metadata.issuer, claims) : metadata.issuer),
      audiences: options.audiences ?? [context.app.clientId],
      now: context.now(),
    });
  };
}

export interface RedirectFindings {
  idClaims: Record<string, unknown> | null;
  userinfo: Record<string, unknown> | null;
  postedUser: string | null;
}

export function discoveryProvider(
  context: ProviderContext,
  spec: {
    documentUrl: string;
    /** Fixed endpoints instead of the document's (Google's AUTHORIZE_URL and the like). */
    metadata?: oidc.ServerMetadata;
    /** The signing keys, when not the JWK Set at jwks_uri. */
    keys?: JWTVerifyGetKey;
    defaultScope: readonly string[];
    /** Extra authorization parameters (Apple: form_post). */
    extra?: Record<string, string>;
    /** The token endpoint answers with an ID token whatever the scopes (Apple, whose scopes name no `openid`). */
    alwaysIdToken?: boolean;
    clientAuth?: (server: oidc.ServerMetadata) => oidc.ClientAuth;
    /** The client id for the redirect flow when the app lists several (Apple). */
    clientId?: string;
    fetchUserinfo: boolean;
    /** Userinfo fetched some other way than OpenID Connect's (Google's IDENTITY_URL, which may answer `id` for `sub`). */
    userinfo?: (config: oidc.Configuration, accessToken: string, subject: string | undefined) => Promise<Record<string, unknown>>;
    issuers?: (discovered: string, claims: JWTPayload) => string | null | readonly string[];
    audiences?: readonly string[];
    /** What a redirect login stores as extra_data; the reference's openid_connect shape {userinfo?, id_token?} by default. */
    redirectData?: (found: RedirectFindings) => Record<string, unknown>;
    /** The identity in the claims; the standard claims (uid from `sub`) by default. */
    identity?: (claims: Record<string, unknown>, extraData: Record<string, unknown>) => Identity;
    display?: (extraData: Record<string, unknown>) => string;
    mergeExtraData?: Provider['mergeExtraData'];
  },
): Provider {
  const { app } = context;
  const auth = spec.clientAuth ?? defaultClientAuth(context);
  const fixed = spec.metadata && fixedServer(context, spec.metadata, auth(spec.metadata));
  const server = fixed ? async () => fixed : discoveredServer(context, spec.documentUrl, auth, spec.clientId);
  const checkIdToken = idTokenCheck(context, server, spec);
  const identity = spec.identity ?? ((claims, extraData) => oidcIdentity(claims, extraData));
  const scope = scopes(context, spec.defaultScope);
  return {
    app,
    usesNonce: spec.alwaysIdToken === true || isOpenIdRequest(scope),
    async authorizationUrl(request) {
      return authorizationUrl(await server(), context, request, { scope, extra: spec.extra });
    },
    async completeRedirect(input) {
      const config = await server();
      const { tokens, idClaims } = await exchangeCode(config, context, input);
      const hasUserinfo = config.serverMetadata().userinfo_endpoint !== undefined;
      let userinfo: Record<string, unknown> | null = null;
      if ((spec.fetchUserinfo && hasUserinfo) || !idClaims) {
        if (!hasUserinfo) throw new ProviderError('the provider returned no ID token and has no userinfo endpoint');
        // Userinfo must be about the ID token's subject (openid-client checks it).
        const subject = typeof idClaims?.sub === 'string' ? idClaims.sub : undefined;
        userinfo = spec.userinfo ? await spec.userinfo(config, tokens.accessToken, subject) : await oidc.fetchUserInfo(config, tokens.accessToken, subject ?? oidc.skipSubjectCheck);
      }
      const found = { idClaims, userinfo, postedUser: input.postedUser };
      const extraData = spec.redirectData ? spec.redirectData(found) : { ...(userinfo ? { userinfo } : {}), ...(idClaims ? { id_token: idClaims } : {}) };
      return { identity: identity(pickClaims(extraData), extraData), tokens };
    },
    async verifyToken(token) {
      // The reference accepts only an ID token here: an access token alone proves nothing about the audience.
      if (!token.idToken) return null;
      const verified = await checkIdToken(token.idToken);
      return verified && { identity: identity(verified.claims, verified.claims), tokens: null, tokenUse: verified.tokenUse };
    },
    display: spec.display ?? ((extraData) => accountDisplay(pickClaims(extraData), app.name)),
    mergeExtraData: spec.mergeExtraData,
  };
}
