import type { SocialSettings } from '../config/social.js';
import type { Provider } from './provider-type.js';
import { providerType } from './providers/index.js';
import { findApp } from './views.js';

/** The configured providers at run time, one per app, built once at start-up. */
export interface SocialProviders {
  /** The provider behind a public id (and client id, when several apps share the id). */
  get(id: string, clientId?: string): Provider | undefined;
}

export function createSocialProviders(settings: SocialSettings, now: () => number): SocialProviders {
  const byApp = new Map(
    settings.apps.map((app) => [
      app,
      providerType(app.type)!.create({ app, timeoutSeconds: settings.requestsTimeout, queryEmail: settings.queryEmail, now }),
    ]),
  );
  return {
    get(id, clientId) {
      const app = findApp(settings, id, clientId);
      return app ? byApp.get(app) : undefined;
    },
  };
}
