import type { ClientKind } from '../config/config.js';
import type { SocialSettings } from '../config/social.js';
import type { Flow, SocialApp } from './app.js';
import { stringOption } from './app.js';
import { providerType } from './providers/index.js';
import { wellKnownUrl } from './kit/servers.js';
import type { PendingFlow } from '../domain/session.js';

// How providers appear on the wire: in /config, in the 401 flows, in a
// pending provider signup and in the connected accounts.

export interface ProviderView {
  id: string;
  name: string;
  flows: Flow[];
  client_id: string;
  openid_configuration_url?: string;
}

function providerFlows(app: SocialApp): Flow[] {
  return [...providerType(app.type)!.flows];
}

export function providerView(app: SocialApp): ProviderView {
  return {
    id: app.id,
    name: app.name,
    flows: providerFlows(app),
    client_id: app.clientId,
    // As the reference: only apps of the openid_connect type show it.
    ...(app.type === 'openid_connect' ? { openid_configuration_url: wellKnownUrl(stringOption(app, 'server_url')!) } : {}),
  };
}

/** The apps a client can use, in configuration order: browsers the redirect flow, apps the token flow. */
function listedApps(social: SocialSettings, client: ClientKind): SocialApp[] {
  const needed: Flow = client === 'browser' ? 'provider_redirect' : 'provider_token';
  return social.apps.filter((app) => !app.common.hidden && providerFlows(app).includes(needed));
}

/** GET /config's socialaccount section: the providers sorted by name. */
export function socialConfig(social: SocialSettings, client: ClientKind): { providers: ProviderView[] } {
  const apps = listedApps(social, client).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { providers: apps.map(providerView) };
}

type FlowEntry = { id: Flow; providers: string[] } | { id: 'provider_signup'; provider: ProviderView; is_pending: true };

/**
 * The provider flows of a 401 body, after `signup`: redirect (browsers only)
 * and token with their provider ids, then a pending provider signup with its provider.
 */
export function socialFlows(social: SocialSettings, client: ClientKind, pending: PendingFlow | null): FlowEntry[] {
  if (!social.enabled) return [];
  const apps = social.apps.filter((app) => !app.common.hidden);
  const flows: FlowEntry[] = [];
  const redirect = apps.filter((app) => providerFlows(app).includes('provider_redirect')).map((app) => app.id);
  const token = apps.filter((app) => providerFlows(app).includes('provider_token')).map((app) => app.id);
  if (client === 'browser' && redirect.length > 0) flows.push({ id: 'provider_redirect', providers: redirect });
  if (token.length > 0) flows.push({ id: 'provider_token', providers: token });
  const app = pending?.id === 'provider_signup' ? findApp(social, pending.provider, pending.clientId) : undefined;
  if (app) flows.push({ id: 'provider_signup', provider: providerView(app), is_pending: true });
  return flows;
}

/**
 * The app behind a public provider id (and client id, when several apps
 * share the id); hidden apps included. An app's client_id may list several
 * ids, comma-separated (Apple's web service id and app bundle ids): each names it.
 */
export function findApp(social: SocialSettings, id: string, clientId?: string): SocialApp | undefined {
  const apps = social.apps.filter((app) => app.id === id);
  if (clientId === undefined) return apps.find((app) => !app.common.hidden) ?? apps[0];
  return apps.find((app) => app.clientId === clientId || app.clientId.split(',').some((one) => one.trim() === clientId));
}

/**
 * The callback path of an app, the reference's: /accounts/<prefix>/<provider_id>/login/callback/
 * for openid_connect apps, /accounts/<type>/login/callback/ for the others, so
 * redirect URIs registered for django-allauth keep working.
 */
export function callbackPath(app: SocialApp, oidcPrefix: string): string {
  return app.type === 'openid_connect' ? oidcCallbackPath(oidcPrefix, app.id) : `/accounts/${app.type}/login/callback/`;
}

export function oidcCallbackPath(oidcPrefix: string, providerId: string): string {
  return `/accounts/${oidcPrefix ? `${oidcPrefix}/` : ''}${providerId}/login/callback/`;
}
