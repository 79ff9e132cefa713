import type { IdpClientAuthMethod, IdpClientRecord } from '../store/idp-clients.js';
import { ASSERTION_ALGS, isLoopbackUrl } from './client-keys.js';

// How clients authenticate at the token, introspection and revocation
// endpoints, and what discovery says of it: exactly these methods.
//
// client_secret_jwt is not offered: its assertions are HMACs keyed with the
// plain secret, and only a hash of a secret is kept here (the imported ones
// are Django password hashes), so the provider could not check them.
// private_key_jwt (RFC 7523) is: the client registers its public keys
// (client-keys.ts) and has no secret at all.

export const CLIENT_AUTH_METHODS: readonly IdpClientAuthMethod[] = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'];

/** What a confidential client may register; client_secret_basic and client_secret_post both mean "its secret, sent either way". */
export const CONFIDENTIAL_AUTH_METHODS: readonly IdpClientAuthMethod[] = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'];

/** Whether clients of this method have a secret. */
export function usesSecret(method: IdpClientAuthMethod): boolean {
  return method === 'client_secret_basic' || method === 'client_secret_post';
}

/**
 * The method the provider is told the client has, for one request:
 * oidc-provider binds a client to one method, while a client with a secret
 * may send it in the Authorization header or in the body, as the reference
 * (oauthlib) allows, so that one follows the request (`basic`).
 */
export function requestAuthMethod(client: IdpClientRecord, basic: boolean): IdpClientAuthMethod {
  if (client.type === 'public') return 'none';
  if (client.tokenEndpointAuthMethod === 'private_key_jwt') return 'private_key_jwt';
  return basic ? 'client_secret_basic' : 'client_secret_post';
}

/** The provider's configuration of client authentication. */
export function clientAuthentication(production: boolean) {
  return {
    clientAuthMethods: [...CLIENT_AUTH_METHODS],
    enabledJWA: { clientAuthSigningAlgValues: [...ASSERTION_ALGS] },
    // The provider announces the token endpoint's methods only; introspection and revocation authenticate the same way.
    discovery: {
      introspection_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
      introspection_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGS],
      revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
      revocation_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGS],
    },
    // A client's jwks_uri is fetched through oidc-provider's guard against
    // special-use addresses (loopback, private networks), except on this
    // machine's loopback outside production, which only an administrator
    // can register (client-keys.ts, jwksUriProblem): a key server in
    // development or tests.
    fetch: (url: string | URL, options: RequestInit & { dispatcher?: unknown }) => {
      if (!production && isLoopbackUrl(new URL(url))) delete options.dispatcher;
      return globalThis.fetch(url, options);
    },
  };
}
