import * as oidc from 'openid-client';
import type { ProviderContext } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { cachedFor } from './cached.js';

// openid-client configurations (server metadata + client credentials) for
// the providers: discovered from a well-known URL, or built from a provider's
// fixed endpoints. Discovery documents are kept for an hour rather than
// fetched on every request as the reference does; signing keys are refreshed
// separately (id-token.ts) whenever a token names a key not yet seen.

const DISCOVERY_TTL_MS = 60 * 60_000;

/** How the client authenticates at the token endpoint. */
export type ClientAuthMethod = 'client_secret_post' | 'client_secret_basic';

export function clientAuth(context: ProviderContext, method: ClientAuthMethod): oidc.ClientAuth {
  return method === 'client_secret_basic' ? oidc.ClientSecretBasic(context.app.secret) : oidc.ClientSecretPost(context.app.secret);
}

function allowHttpOnLoopback(url: URL): Array<(config: oidc.Configuration) => void> {
  // Config validation already refused http anywhere but loopback (loopback.ts).
  return url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
}

/** The well-known URL the reference derives from `server_url`: used as given when it already is one. */
export function wellKnownUrl(serverUrl: string): string {
  return serverUrl.includes('/.well-known/') ? serverUrl : `${serverUrl.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/**
 * A configuration from the discovery document at `documentUrl`. As in the
 * reference, the document's endpoints and issuer are used as given (the
 * issuer then checks every ID token). `auth` picks the client authentication
 * once the document is known.
 */
export function discoveredServer(
  context: ProviderContext,
  documentUrl: string,
  auth: (server: oidc.ServerMetadata) => oidc.ClientAuth,
  clientId = context.app.clientId,
): () => Promise<oidc.Configuration> {
  const url = new URL(documentUrl);
  const lazyAuth: oidc.ClientAuth = (server, client, body, headers) => auth(server)(server, client, body, headers);
  return cachedFor(DISCOVERY_TTL_MS, async () => {
    try {
      // A URL naming the document itself is fetched as is, without the issuer-equals-URL check.
      const config = await oidc.discovery(url, clientId, { client_secret: context.app.secret }, lazyAuth, {
        timeout: context.timeoutSeconds,
        execute: allowHttpOnLoopback(url),
      });
      config.timeout = context.timeoutSeconds;
      return config;
    } catch (error) {
      throw new ProviderError(`discovery at ${documentUrl} failed: ${(error as Error).message}`, { cause: error });
    }
  });
}

/** A configuration for a provider with fixed endpoints (no discovery document). */
export function fixedServer(context: ProviderContext, server: oidc.ServerMetadata, auth: oidc.ClientAuth): oidc.Configuration {
  const config = new oidc.Configuration(server, context.app.clientId, { client_secret: context.app.secret }, auth);
  config.timeout = context.timeoutSeconds;
  for (const step of allowHttpOnLoopback(new URL(server.token_endpoint!))) step(config);
  return config;
}
