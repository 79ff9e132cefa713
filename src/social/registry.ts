import type { SocialApp } from './app.js';
import type { Provider } from './provider-type.js';
import { providerType } from './providers/index.js';
import { findApp } from './apps.js';

/** The configured providers at run time, one per app, built once at start-up. */
export interface SocialProviders {
  /** The provider behind a public id (and client id, when several apps share the id). */
  get(id: string, clientId?: string): Provider | undefined;
}

/** What the providers are built from (SOCIALACCOUNT_PROVIDERS and its request settings). */
export interface ProviderSettings {
  apps: SocialApp[];
  requestsTimeout: number;
  queryEmail: boolean;
  storeTokens: boolean;
  emailRequired: boolean;
  /** SOCIALACCOUNT_PROVIDER_ORIGINS: a provider origin → the base URL it is reached at instead. */
  providerOrigins: Readonly<Record<string, string>>;
}

/** Rewrites a provider's fixed URL whose origin is served elsewhere; others are kept as they are. */
export function endpointRewriter(origins: Readonly<Record<string, string>>): (url: string) => string {
  return (url) => {
    const origin = /^https?:\/\/[^/?#]+/i.exec(url)?.[0];
    const base = origin === undefined ? undefined : origins[origin.toLowerCase()];
    return base === undefined ? url : `${base}${url.slice(origin!.length)}`;
  };
}

export function createSocialProviders(settings: ProviderSettings, now: () => number): SocialProviders {
  const endpoint = endpointRewriter(settings.providerOrigins);
  const byApp = new Map(
    settings.apps.map((app) => [
      app,
      providerType(app.type)!.create({ app, timeoutSeconds: settings.requestsTimeout, queryEmail: settings.queryEmail, storeTokens: settings.storeTokens, emailRequired: settings.emailRequired, endpoint, now }),
    ]),
  );
  return {
    get(id, clientId) {
      const app = findApp(settings.apps, id, clientId);
      return app ? byApp.get(app) : undefined;
    },
  };
}
