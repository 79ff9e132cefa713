import { sourceMillis, sourceTime, type AllauthSource } from './source.js';

/** A django_session row that has not expired. */
export interface SourceSession {
  key: string;
  /** Signed, possibly compressed JSON (see flows/admin/import-allauth/django-session.ts). */
  data: string;
  expiresAt: number;
}

/** What allauth.usersessions recorded about a session, when it is installed. */
export interface SourceSessionDetails {
  ip: string;
  userAgent: string;
  createdAt: number;
  lastSeenAt: number;
}

export async function countLiveSessions(source: AllauthSource, now: number): Promise<number> {
  if (!source.tables.has('django_session')) return 0;
  const row = await source.conn
    .selectFrom('django_session')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('expire_date', '>', sourceTime(source, now))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The next `limit` live sessions after `afterKey`, by key. */
export async function readLiveSessions(source: AllauthSource, afterKey: string, limit: number, now: number): Promise<SourceSession[]> {
  if (!source.tables.has('django_session')) return [];
  const rows = await source.conn
    .selectFrom('django_session')
    .select(['session_key', 'session_data', 'expire_date'])
    .where('expire_date', '>', sourceTime(source, now))
    .where('session_key', '>', afterKey)
    .orderBy('session_key')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ key: row.session_key, data: row.session_data, expiresAt: sourceMillis(row.expire_date)! }));
}

export async function readSessionDetails(source: AllauthSource, keys: string[]): Promise<Map<string, SourceSessionDetails>> {
  if (keys.length === 0 || !source.tables.has('usersessions_usersession')) return new Map();
  const rows = await source.conn
    .selectFrom('usersessions_usersession')
    .select(['session_key', 'ip', 'user_agent', 'created_at', 'last_seen_at'])
    .where('session_key', 'in', keys)
    .execute();
  return new Map(
    rows.map((row) => [
      row.session_key,
      { ip: String(row.ip), userAgent: row.user_agent, createdAt: sourceMillis(row.created_at)!, lastSeenAt: sourceMillis(row.last_seen_at)! },
    ]),
  );
}
