import type { ClientKind } from '../config/config.js';
import type { SocialSettings } from '../config/social.js';
import type { Flow, SocialApp } from '../social/app.js';
import { stringOption } from '../social/app.js';
import { providerType } from '../social/providers/index.js';
import { wellKnownUrl } from '../social/kit/servers.js';
import { findApp } from '../social/apps.js';
import type { PendingFlow } from '../domain/session.js';
import type { SocialAccountInfo } from '../flows/outcome.js';

// How providers appear on the wire: in /config, in the 401 flows, in a
// pending provider signup and in the connected accounts.

export interface ProviderView {
  id: string;
  name: string;
  flows: Flow[];
  client_id?: string;
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
    // As the reference: OAuth 1.0a, OpenID 2.0 and Telegram apps do not show it.
    ...(providerType(app.type)!.listsClientId === false ? {} : { client_id: app.clientId }),
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
  const app = pending?.id === 'provider_signup' ? findApp(social.apps, pending.provider, pending.clientId) : undefined;
  if (app) flows.push({ id: 'provider_signup', provider: providerView(app), is_pending: true });
  return flows;
}

/** A connected (or pending) account; one of a provider no longer configured is still listed, so that it can be disconnected. */
export function accountView(account: SocialAccountInfo): { uid: string; provider: ProviderView; display: string } {
  const provider = account.app ? providerView(account.app) : { id: account.provider, name: account.provider, flows: [], client_id: '' };
  return { uid: account.uid, provider, display: account.display };
}
