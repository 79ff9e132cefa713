import type { SocialApp } from './app.js';
import { providerType } from './providers/index.js';

// Finding a configured app, and the callback path providers send the browser back to.

/**
 * The app behind a public provider id (and client id, when several apps
 * share the id); hidden apps included. An app's client_id may list several
 * ids, comma-separated (Apple's web service id and app bundle ids): each names it.
 */
export function findApp(configured: readonly SocialApp[], id: string, clientId?: string): SocialApp | undefined {
  const apps = configured.filter((app) => app.id === id);
  if (clientId === undefined) return apps.find((app) => !app.common.hidden) ?? apps[0];
  return apps.find((app) => app.clientId === clientId || app.clientId.split(',').some((one) => one.trim() === clientId));
}

/**
 * The callback path of an app, the reference's: /accounts/<prefix>/<provider_id>/login/callback/
 * for openid_connect apps, /accounts/<type>/login/callback/ for the others
 * (Steam's /accounts/steam/callback/), so redirect URIs registered for
 * django-allauth keep working.
 */
export function callbackPath(app: SocialApp, oidcPrefix: string): string {
  // SAML: the organization's assertion consumer service.
  if (app.type === 'saml') return `/accounts/saml/${app.clientId}/acs/`;
  return app.type === 'openid_connect' ? oidcCallbackPath(oidcPrefix, app.id) : typeCallbackPath(app.type);
}

/** The callback path of a provider type other than openid_connect, under its slug. */
export function typeCallbackPath(type: string): string {
  const provider = providerType(type);
  return `/accounts/${provider?.slug ?? type}/${provider?.callback?.path ?? 'login/callback/'}`;
}

export function oidcCallbackPath(oidcPrefix: string, providerId: string): string {
  return `/accounts/${oidcPrefix ? `${oidcPrefix}/` : ''}${providerId}/login/callback/`;
}
