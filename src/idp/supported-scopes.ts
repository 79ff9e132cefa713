import internal from 'oidc-provider/lib/helpers/weak_cache.js';

/**
 * The scopes the provider accepts: the standard ones and those of each
 * client, as the reference lets each client list its own (an API's `read`,
 * `write`), each client held to its list. oidc-provider copies its `scopes`
 * setting into a Set of its own at construction and checks scopes against
 * it, so a client's scopes join that Set when the client is loaded (reached
 * through the package's internal configuration reader:
 * test/idp/tokens.test.ts fails if an update moves it).
 */
export function supportedScopes(provider: unknown): Set<string> {
  return (internal(provider) as { configuration: { scopes: Set<string> } }).configuration.scopes;
}
