import { errors } from 'oidc-provider';
import type { IdpSettings } from '../config/idp.js';

// Resource indicators (RFC 8707): a client names the API it wants a token
// for (`resource`), and gets an access token whose audience is that API,
// with that API's scopes among its own. The APIs are IDP_OIDC_RESOURCE_SERVERS;
// without them the feature is off. A request naming no resource is answered
// as before: a token without audience, which userinfo accepts.

export interface ResourceServerInfo {
  scope: string;
  audience: string;
  accessTokenTTL: number;
  accessTokenFormat: 'opaque' | 'jwt';
  jwt?: { sign: { alg: string } };
}

/** What oidc-provider needs to know of a resource for a client, or undefined for a resource not configured. */
export function resourceServerInfo(settings: IdpSettings, signingAlg: string) {
  const byResource = new Map(settings.resourceServers.map((server) => [server.resource, server]));
  return (indicator: string, client: { scope?: string }): ResourceServerInfo | undefined => {
    const server = byResource.get(indicator);
    if (!server) return undefined;
    const clientScopes = new Set(String(client.scope ?? '').split(' '));
    return {
      // The client is held to its own scopes here as everywhere.
      scope: server.scopes.filter((scope) => clientScopes.has(scope)).join(' '),
      audience: server.resource,
      accessTokenTTL: server.accessTokenTtl ?? settings.accessTokenExpiresIn,
      accessTokenFormat: server.accessTokenFormat,
      // Signed with the provider's key (RSA or EC), as its ID tokens are.
      ...(server.accessTokenFormat === 'jwt' ? { jwt: { sign: { alg: signingAlg } } } : {}),
    };
  };
}

/** oidc-provider's resourceIndicators feature over IDP_OIDC_RESOURCE_SERVERS. */
export function resourceIndicatorsFeature(settings: IdpSettings, signingAlg: string): Record<string, unknown> {
  if (settings.resourceServers.length === 0) return { enabled: false };
  const info = resourceServerInfo(settings, signingAlg);
  return {
    enabled: true,
    defaultResource: async () => undefined,
    // A code (or refresh token) obtained for one resource gives tokens for it when the token request names none.
    useGrantedResource: async () => true,
    getResourceServerInfo: async (_ctx: unknown, indicator: string, client: { scope?: string }) => {
      const found = info(indicator, client);
      if (!found) throw new errors.InvalidTarget();
      return found;
    },
  };
}

/** The provider's ttl for access tokens: the resource server's when the token has one. */
export function accessTokenTtl(settings: IdpSettings) {
  return (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) => token.resourceServer?.accessTokenTTL ?? settings.accessTokenExpiresIn;
}

/** For a client that skips consent: grants the resource scopes its request asks for (consent.ts does it after the consent page). */
export function grantRequestedResourceScopes(ctx: any, grant: any): void {
  for (const [indicator, server] of Object.entries(ctx.oidc.resourceServers ?? {}) as Array<[string, { scopes: Set<string> }]>) {
    const scopes = [...ctx.oidc.requestParamScopes].filter((scope) => server.scopes.has(scope));
    if (scopes.length) grant.addResourceScope(indicator, scopes.join(' '));
  }
}
