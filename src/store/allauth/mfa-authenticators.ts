import { hasColumn, sourceJson, sourceMillis, type AllauthSource } from './source.js';

/** A row of allauth.mfa's mfa_authenticator; `data` is its JSON (null when it is not a JSON object). */
export interface SourceAuthenticator {
  id: number;
  userId: number;
  type: string;
  data: Record<string, unknown> | null;
  /** Null when the table predates allauth's timestamps (mfa migration 0002). */
  createdAt: number | null;
  lastUsedAt: number | null;
}

const TIMESTAMPS = ['created_at', 'last_used_at'] as const;

/** The next `limit` authenticators after `afterId`, by id. */
export async function readAuthenticators(source: AllauthSource, afterId: number, limit: number): Promise<SourceAuthenticator[]> {
  if (!source.tables.has('mfa_authenticator')) return [];
  const present = TIMESTAMPS.filter((column) => hasColumn(source, 'mfa_authenticator', column));
  const rows = await source.conn
    .selectFrom('mfa_authenticator')
    .select(['id', 'user_id', 'type', 'data', ...present])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    userId: Number(row.user_id),
    type: row.type,
    data: sourceJson(row.data),
    createdAt: sourceMillis(row.created_at ?? null),
    lastUsedAt: sourceMillis(row.last_used_at ?? null),
  }));
}
