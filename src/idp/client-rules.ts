import type { ClientExtras } from './client-metadata.js';
import { clientSecretMatches } from './client-secrets.js';
import { redirectUriAllowed } from './uris.js';

/** Our redirect URI rules (uris.ts) and hashed client secrets, on the provider's Client model. */
export function applyClientRules(provider: any): void {
  const Client = provider.Client;
  Client.prototype.redirectUriAllowed = function (this: ClientExtras, value: string) {
    return redirectUriAllowed(value, this.x_redirect_uris, this.x_allow_uri_wildcards);
  };
  Client.prototype.postLogoutRedirectUriAllowed = function (this: ClientExtras, value: string) {
    return redirectUriAllowed(value, this.x_post_logout_redirect_uris, this.x_allow_uri_wildcards);
  };
  // The provider compares the presented secret with client_secret; ours is a hash.
  Client.prototype.compareClientSecret = function (this: { clientSecret: string }, actual: string) {
    return clientSecretMatches(actual, this.clientSecret);
  };
}
