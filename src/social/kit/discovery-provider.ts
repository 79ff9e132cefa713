import * as oidc from 'openid-client';
import { ProviderError, type Provider, type ProviderContext } from '../provider-type.js';
import { stringOption } from '../app.js';
import { clientAuth, discoveredServer, type ClientAuthMethod } from './servers.js';
import { authorizationUrl, exchangeCode, scopes } from './authorization.js';
import { remoteKeys, signingAlgorithms, verifyIdToken } from './id-token.js';
import { oidcIdentity } from './claims.js';
import { accountDisplay } from './display.js';
import { cachedFor } from './cached.js';

// A provider whose endpoints come from an OpenID Connect discovery document:
// openid_connect apps, and Google, Apple and Microsoft with their defaults.
// The redirect flow redeems the code (and reads userinfo); the token flow
// checks an ID token against the published keys.

/** The reference's token_auth_method default: Basic only when discovery offers it and not post. */
function authMethod(context: ProviderContext, server: oidc.ServerMetadata): ClientAuthMethod {
  const configured = stringOption(context.app, 'token_auth_method') as ClientAuthMethod | undefined;
  if (configured) return configured;
  const supported = server.token_endpoint_auth_methods_supported ?? [];
  return supported.includes('client_secret_basic') && !supported.includes('client_secret_post') ? 'client_secret_basic' : 'client_secret_post';
}

/** Userinfo when it was fetched (it usually says more), else the ID token's claims, else the data itself (token flow). */
export function pickClaims(extraData: Record<string, unknown>): Record<string, unknown> {
  for (const key of ['userinfo', 'id_token']) {
    const value = extraData[key];
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  }
  return extraData;
}

/** The discovery-based provider behind openid_connect, and behind Google and Apple with their own defaults. */
export function discoveryProvider(
  context: ProviderContext,
  spec: {
    documentUrl: string;
    defaultScope: readonly string[];
    /** Extra authorization parameters (Apple: form_post). */
    extra?: Record<string, string>;
    clientAuth?: (server: oidc.ServerMetadata) => oidc.ClientAuth;
    fetchUserinfo: boolean;
    uidField?: string;
    /** The issuers an ID token may name; the discovery document's issuer when absent. */
    issuers?: (discovered: string) => readonly string[];
    /** The client ids an ID token may be for (Apple accepts several). */
    audiences?: readonly string[];
  },
): Provider {
  const { app } = context;
  const server = discoveredServer(context, spec.documentUrl, spec.clientAuth ?? ((metadata) => clientAuth(context, authMethod(context, metadata))));
  const keys = cachedFor(60 * 60_000, async () => {
    const metadata = (await server()).serverMetadata();
    return { keys: remoteKeys(metadata.jwks_uri!, context.timeoutSeconds), metadata };
  });
  const uidField = spec.uidField ?? 'sub';
  return {
    app,
    async authorizationUrl(request) {
      return authorizationUrl(await server(), context, request, { scope: scopes(context, spec.defaultScope), extra: spec.extra });
    },
    async completeRedirect(input) {
      const config = await server();
      const { tokens, idClaims } = await exchangeCode(config, context, input);
      const extraData: Record<string, unknown> = {};
      const hasUserinfo = config.serverMetadata().userinfo_endpoint !== undefined;
      if ((spec.fetchUserinfo && hasUserinfo) || !idClaims) {
        if (!hasUserinfo) throw new ProviderError('the provider returned no ID token and has no userinfo endpoint');
        // Userinfo must be about the ID token's subject (openid-client checks it).
        extraData.userinfo = await oidc.fetchUserInfo(config, tokens.accessToken, typeof idClaims?.sub === 'string' ? idClaims.sub : oidc.skipSubjectCheck);
      }
      if (idClaims) extraData.id_token = idClaims;
      return { identity: oidcIdentity(pickClaims(extraData), extraData, uidField), tokens };
    },
    async verifyToken(token) {
      // The reference accepts only an ID token here: an access token alone proves nothing about the audience.
      if (!token.idToken) return null;
      const { keys: getKey, metadata } = await keys();
      const verified = await verifyIdToken(token.idToken, {
        keys: getKey,
        algorithms: signingAlgorithms(metadata.id_token_signing_alg_values_supported),
        issuer: () => spec.issuers?.(metadata.issuer) ?? metadata.issuer,
        audiences: spec.audiences ?? [app.clientId],
        now: context.now(),
      });
      if (!verified) return null;
      return { identity: oidcIdentity(verified.claims, verified.claims, uidField), tokens: null, tokenUse: verified.tokenUse };
    },
    display: (extraData) => accountDisplay(pickClaims(extraData), app.name),
  };
}
