import type { SocialApp } from '../../../social/app.js';
import { providerType } from '../../../social/providers/index.js';
import type { SourceSocialApp } from '../../../store/allauth/social-apps.js';

// Which provider here a social account of the source belongs to. allauth's
// socialaccount.provider holds an app's provider_id where the app has one
// (OpenID Connect, SAML), else the provider type; this server stores
// accounts under the same public id (provider_id, else the type), so an id
// carries over as it is unless --provider-map renames it. Apps kept in the
// source's database tell an id's type; apps set in Django's settings leave
// no trace, so an id that is not a provider type here and not configured
// here cannot be placed without the operator's word.

export interface ProviderRoute {
  /** The value of socialaccount.provider. */
  source: string;
  accounts: number;
  /** The public provider id the accounts get here; null: they are not imported. */
  target: string | null;
  /** The provider type, where known. */
  type: string | null;
  /** An app with the target id is in SOCIALACCOUNT_PROVIDERS here. */
  configuredHere: boolean;
  mapped: boolean;
  skip?: 'unknown_provider' | 'unsupported_provider';
}

/** The public id an allauth app's accounts carry: its provider_id, else its type. */
export function sourceProviderId(app: SourceSocialApp): string {
  return app.providerId || app.provider;
}

/** Where the accounts of `source` go; `accounts` is left at 0 for the caller to count. */
export function routeProvider(source: string, apps: SourceSocialApp[], configured: readonly SocialApp[], map: ReadonlyMap<string, string>): ProviderRoute {
  const mapped = map.has(source);
  const target = map.get(source) ?? source;
  const here = configured.find((app) => app.id === target);
  const app = apps.find((a) => sourceProviderId(a) === source);
  const type = here?.type ?? app?.provider ?? (providerType(source) ? source : null);
  const route: ProviderRoute = { source, accounts: 0, target, type, configuredHere: here !== undefined, mapped };
  // The operator's map and the settings here are taken at their word.
  if (mapped || here) return route;
  if (type === null) return { ...route, target: null, skip: 'unknown_provider' };
  if (!providerType(type)) return { ...route, target: null, skip: 'unsupported_provider' };
  return route;
}
