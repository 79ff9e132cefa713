import { hasColumn, sourceJson, type AllauthSource } from './source.js';

/** A provider app kept in allauth's database (socialaccount_socialapp), rather than in its settings. */
export interface SourceSocialApp {
  id: number;
  /** The provider type: openid_connect, github, ... */
  provider: string;
  /** The app's own id among apps of its type (OpenID Connect, SAML); empty for most types. */
  providerId: string;
  name: string;
  clientId: string;
  secret: string;
  key: string;
  settings: Record<string, unknown>;
}

// Columns allauth added over the years (provider_id and settings in 0.55): absent ones read as empty.
const LATER = ['provider_id', 'key', 'settings'] as const;

export async function readSocialApps(source: AllauthSource): Promise<SourceSocialApp[]> {
  if (!source.tables.has('socialaccount_socialapp')) return [];
  const present = LATER.filter((column) => hasColumn(source, 'socialaccount_socialapp', column));
  const rows = (await source.conn
    .selectFrom('socialaccount_socialapp')
    .select(['id', 'provider', 'name', 'client_id', 'secret', ...present])
    .orderBy('id')
    .execute()) as Array<{ id: number; provider: string; name: string; client_id: string; secret: string; provider_id?: string; key?: string; settings?: Parameters<typeof sourceJson>[0] }>;
  return rows.map((row) => ({
    id: Number(row.id),
    provider: row.provider,
    providerId: row.provider_id ?? '',
    name: row.name,
    clientId: row.client_id,
    secret: row.secret,
    key: row.key ?? '',
    settings: (row.settings === undefined ? null : sourceJson(row.settings)) ?? {},
  }));
}
