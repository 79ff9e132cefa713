import { sourceJson, sourceMillis, type AllauthSource } from './source.js';

/** A row of allauth.mfa's mfa_authenticator; `data` is its JSON (null when it is not a JSON object). */
export interface SourceAuthenticator {
  id: number;
  userId: number;
  type: string;
  data: Record<string, unknown> | null;
  createdAt: number;
  lastUsedAt: number | null;
}

export async function countAuthenticators(source: AllauthSource): Promise<number> {
  if (!source.tables.has('mfa_authenticator')) return 0;
  const row = await source.conn
    .selectFrom('mfa_authenticator')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The next `limit` authenticators after `afterId`, by id. */
export async function readAuthenticators(source: AllauthSource, afterId: number, limit: number): Promise<SourceAuthenticator[]> {
  if (!source.tables.has('mfa_authenticator')) return [];
  const rows = await source.conn
    .selectFrom('mfa_authenticator')
    .select(['id', 'user_id', 'type', 'data', 'created_at', 'last_used_at'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    userId: Number(row.user_id),
    type: row.type,
    data: sourceJson(row.data),
    createdAt: sourceMillis(row.created_at)!,
    lastUsedAt: sourceMillis(row.last_used_at),
  }));
}
