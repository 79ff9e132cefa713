import { AsyncLocalStorage } from 'node:async_hooks';
import type { IdpClientRecord } from '../store/idp-clients.js';
import { requestAuthMethod, usesSecret } from './client-auth-methods.js';

// Our client model as oidc-provider's client metadata.
//
// oidc-provider binds each client to one token endpoint authentication
// method; the reference (oauthlib) lets a confidential client send its
// secret in the Authorization header or in the body, as it likes. The http
// layer tells which one the request uses (requestAuth), and the client is
// described to the provider with that method for that request.
//
// Redirect URIs keep the reference's rules (a wildcard host, any loopback
// port, a registered query as a subset): the provider gets them with the
// `*` replaced so that its validation passes, and the matching itself is
// ours (see provider.ts, redirectUriAllowed).

export const requestAuth = new AsyncLocalStorage<{ basic: boolean; byDigest?: boolean }>();

export const WILDCARD_PLACEHOLDER = 'wildcard.invalid';

function placeholder(uri: string): string {
  return uri.replace('*', WILDCARD_PLACEHOLDER);
}

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)[:/]/i;
const customScheme = (uri: string) => !/^https?:/i.test(uri);

/** A redirect URI any app on the device may claim: the code sent there could go to another app than the client's. */
export const claimableRedirectUri = (uri: string) => customScheme(uri) || LOOPBACK.test(uri);

/**
 * Native (consent asked every time, `prompt=none` refused) when every
 * redirect URI is one any app on the device may claim: a custom scheme or a
 * loopback address. A web client with an extra loopback URI (local
 * development) stays web. Native as well when the provider would refuse the
 * URIs of a web client: a custom scheme, or loopback http for the implicit
 * flow.
 */
function applicationType(redirectUris: string[], postLogoutUris: string[], implicit: boolean): 'web' | 'native' {
  if ([...redirectUris, ...postLogoutUris].some((uri) => customScheme(uri) || (implicit && LOOPBACK.test(uri)))) return 'native';
  return redirectUris.length > 0 && redirectUris.every((uri) => LOOPBACK.test(uri)) ? 'native' : 'web';
}

export function clientMetadata(client: IdpClientRecord, signingAlg: string): Record<string, unknown> {
  const confidential = client.type === 'confidential';
  const basic = requestAuth.getStore()?.basic ?? true;
  const grantTypes = client.grantTypes.filter((g) => g !== 'client_credentials' || confidential);
  // The reference has no implicit grant type: a client registered for response types that return tokens from the
  // authorization endpoint (id_token, token) may use them; the provider wants that said as the implicit grant.
  if (client.responseTypes.some((t) => /\b(id_token|token)\b/.test(t))) grantTypes.push('implicit');
  return {
    client_id: client.id,
    client_name: client.name,
    ...(confidential && usesSecret(client.tokenEndpointAuthMethod) ? { client_secret: client.secretHash ?? '' } : {}),
    token_endpoint_auth_method: requestAuthMethod(client, basic),
    ...(client.jwks ? { jwks: client.jwks } : {}),
    ...(client.jwksUri ? { jwks_uri: client.jwksUri } : {}),
    grant_types: grantTypes,
    response_types: client.responseTypes,
    redirect_uris: client.redirectUris.map(placeholder),
    post_logout_redirect_uris: client.postLogoutRedirectUris.map(placeholder),
    application_type: applicationType(client.redirectUris, client.postLogoutRedirectUris, grantTypes.includes('implicit')),
    scope: client.scopes.join(' '),
    id_token_signed_response_alg: signingAlg,
    // auth_time in every ID token, as the reference's (and what max_age checks need).
    require_auth_time: true,
    require_pushed_authorization_requests: client.requirePushedAuthorizationRequests,
    // Ours, read by provider.ts.
    x_redirect_uris: client.redirectUris,
    x_post_logout_redirect_uris: client.postLogoutRedirectUris,
    x_cors_origins: client.corsOrigins,
    x_allow_uri_wildcards: client.allowUriWildcards,
    x_skip_consent: client.skipConsent,
    x_default_scopes: client.defaultScopes,
  };
}

export const EXTRA_METADATA = ['x_redirect_uris', 'x_post_logout_redirect_uris', 'x_cors_origins', 'x_allow_uri_wildcards', 'x_skip_consent', 'x_default_scopes'];

/** The extra metadata as the provider's Client instances carry it. */
export interface ClientExtras {
  clientId: string;
  clientName?: string;
  x_redirect_uris: string[];
  x_post_logout_redirect_uris: string[];
  x_cors_origins: string[];
  x_allow_uri_wildcards: boolean;
  x_skip_consent: boolean;
  x_default_scopes: string[];
}
