import type * as oidc from 'openid-client';
import type { ProviderContext, ProviderType } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { booleanOption, stringOption, type OptionSpec } from '../app.js';
import { bearerGetObject } from '../kit/api.js';
import { discoveryProvider } from '../kit/discovery-provider.js';
import { publishedKeys } from '../kit/published-keys.js';
import { wellKnownUrl } from '../kit/servers.js';

// Google: OpenID Connect at accounts.google.com (server_url only to point
// elsewhere, e.g. a test stand-in). The ID token says it all, so userinfo is
// fetched only with FETCH_USERINFO (the reference's setting, default off),
// and the account keeps the ID token's claims (the reference's shape).
//
// The reference fixes Google's endpoints instead of discovering them, and
// lets AUTHORIZE_URL, ACCESS_TOKEN_URL, IDENTITY_URL, CERTS_URL and
// ID_TOKEN_ISSUER replace them (a proxy, a mirror): with any of those set,
// the endpoints are those, Google's own for the ones not set.

const GOOGLE = 'https://accounts.google.com';
const ENDPOINTS = {
  authorize_url: 'https://accounts.google.com/o/oauth2/v2/auth',
  access_token_url: 'https://oauth2.googleapis.com/token',
  identity_url: 'https://openidconnect.googleapis.com/v1/userinfo',
  certs_url: 'https://www.googleapis.com/oauth2/v3/certs',
};
const FIXED = [...Object.keys(ENDPOINTS), 'id_token_issuer'];

const options: Record<string, OptionSpec> = {
  server_url: { kind: 'url', appOnly: true },
  fetch_userinfo: { kind: 'boolean' },
  authorize_url: { kind: 'url' },
  access_token_url: { kind: 'url' },
  identity_url: { kind: 'url' },
  certs_url: { kind: 'url' },
  id_token_issuer: { kind: 'string' },
};

/** The endpoints the settings name, or null when discovery gives them. */
function fixedEndpoints(context: ProviderContext): { metadata: oidc.ServerMetadata; certsUrl: string } | null {
  const { app } = context;
  if (!FIXED.some((name) => stringOption(app, name) !== undefined)) return null;
  const url = (name: keyof typeof ENDPOINTS) => stringOption(app, name) ?? ENDPOINTS[name];
  // The browser goes to the authorization endpoint itself; this server's own calls may be served elsewhere.
  const certsUrl = context.endpoint(url('certs_url'));
  return {
    metadata: {
      issuer: stringOption(app, 'id_token_issuer') ?? GOOGLE,
      authorization_endpoint: url('authorize_url'),
      token_endpoint: context.endpoint(url('access_token_url')),
      userinfo_endpoint: context.endpoint(url('identity_url')),
      jwks_uri: certsUrl,
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    },
    certsUrl,
  };
}

export const google: ProviderType = {
  id: 'google',
  name: 'Google',
  flows: ['provider_redirect', 'provider_token'],
  options,
  create(context) {
    const fixed = fixedEndpoints(context);
    return discoveryProvider(context, {
      documentUrl: wellKnownUrl(stringOption(context.app, 'server_url') ?? GOOGLE),
      metadata: fixed?.metadata,
      // CERTS_URL may publish PEM certificates by key id (Google's v1 certs, the reference's default) or a JWK Set.
      keys: fixed ? publishedKeys(fixed.certsUrl, context.timeoutSeconds, () => context.now()) : undefined,
      defaultScope: context.queryEmail ? ['openid', 'profile', 'email'] : ['openid', 'profile'],
      fetchUserinfo: booleanOption(context.app, 'fetch_userinfo') ?? false,
      // IDENTITY_URL may be Google's v2 userinfo, which names the account `id`, not `sub`: either must be the ID token's subject.
      userinfo: fixed
        ? async (config, accessToken, subject) => {
            const info = await bearerGetObject(config, accessToken, config.serverMetadata().userinfo_endpoint!);
            const about = info.sub ?? info.id;
            if (subject !== undefined && String(about) !== subject) throw new ProviderError('Google: userinfo about another account than the ID token');
            return info;
          }
        : undefined,
      // Google's ID tokens name their issuer with or without the scheme.
      issuers: (discovered) => (discovered === GOOGLE ? [GOOGLE, 'accounts.google.com'] : discovered),
      redirectData: ({ idClaims, userinfo }) => ({ ...idClaims, ...userinfo }),
    });
  },
};
