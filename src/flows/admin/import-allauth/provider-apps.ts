import type { SocialApp } from '../../../social/app.js';
import { providerType } from '../../../social/providers/index.js';
import type { SourceSocialApp } from '../../../store/allauth/social-apps.js';
import { sourceProviderId } from './providers.js';

// Provider apps kept in allauth's database (socialaccount_socialapp). This
// server reads its apps from SOCIALACCOUNT_PROVIDERS, so none is imported:
// the summary names each, says whether it is configured here, and writes
// the setting for those that are not. Client secrets stay out of the output
// (a summary ends up in terminals and CI logs) unless asked for.

export interface ProviderAppReport {
  type: string;
  /** The public id its accounts get here. */
  id: string;
  name: string;
  clientId: string;
  configuredHere: boolean;
  /** Whether this server has the provider type at all. */
  supported: boolean;
}

export interface ProviderAppsReport {
  apps: ProviderAppReport[];
  /** SOCIALACCOUNT_PROVIDERS entries for the supported apps not configured here; null when there are none. */
  settings: Record<string, { APPS: Array<Record<string, unknown>> }> | null;
}

export function reportProviderApps(apps: SourceSocialApp[], configured: readonly SocialApp[], map: ReadonlyMap<string, string>, showSecrets: boolean): ProviderAppsReport {
  const report: ProviderAppsReport = { apps: [], settings: null };
  for (const app of apps) {
    const id = map.get(sourceProviderId(app)) ?? sourceProviderId(app);
    const entry = { type: app.provider, id, name: app.name, clientId: app.clientId, configuredHere: configured.some((c) => c.id === id), supported: providerType(app.provider) !== undefined };
    report.apps.push(entry);
    if (entry.configuredHere || !entry.supported) continue;
    const setting: Record<string, unknown> = {
      ...(id !== app.provider ? { provider_id: id } : {}),
      name: app.name,
      client_id: app.clientId,
      secret: showSecrets ? app.secret : `<secret of socialaccount_socialapp ${app.id}>`,
      ...(app.key ? { key: app.key } : {}),
      ...(Object.keys(app.settings).length ? { settings: app.settings } : {}),
    };
    report.settings ??= {};
    (report.settings[app.provider] ??= { APPS: [] }).APPS.push(setting);
  }
  return report;
}
