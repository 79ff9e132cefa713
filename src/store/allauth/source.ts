import SQLite from 'better-sqlite3';
import { int8AsNumber, loadPg } from '../pg-module.js';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';

// A django-allauth database, opened to be read (never written) by the import.
// Its tables are Django's; dialects differ in what rows hold: PostgreSQL
// gives booleans and Date objects, SQLite 0/1 and UTC text without a zone.

type SourceTime = Date | string;
type SourceBool = boolean | number;
/** JSON columns: text on SQLite, parsed jsonb on PostgreSQL. */
type SourceJson = string | Record<string, unknown> | null;

/** Django's auth_user (or a custom user model's table with AbstractUser's columns). */
export interface AuthUserTable {
  id: number;
  password: string;
  last_login: SourceTime | null;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: SourceBool;
  is_staff: SourceBool;
  is_superuser: SourceBool;
  date_joined: SourceTime;
}

export interface AllauthDatabase {
  auth_user: AuthUserTable;
  account_emailaddress: { id: number; user_id: number; email: string; verified: SourceBool; primary: SourceBool };
  django_session: { session_key: string; session_data: string; expire_date: SourceTime };
  usersessions_usersession: { session_key: string; user_id: number; ip: string; user_agent: string; created_at: SourceTime; last_seen_at: SourceTime };
  mfa_authenticator: { id: number; user_id: number; type: string; data: SourceJson; created_at: SourceTime; last_used_at: SourceTime | null };
  socialaccount_socialapp: { id: number; provider: string; provider_id: string; name: string; client_id: string; secret: string; key: string; settings: SourceJson };
  socialaccount_socialaccount: { id: number; user_id: number; provider: string; uid: string; extra_data: SourceJson; date_joined: SourceTime; last_login: SourceTime };
  socialaccount_socialtoken: { id: number; account_id: number; app_id: number | null; token: string; token_secret: string; expires_at: SourceTime | null };
}

export interface AllauthSource {
  /** The database, or within inSnapshot its read-only transaction. */
  conn: Kysely<AllauthDatabase>;
  dialect: 'sqlite' | 'postgres';
  /** Each table of the source with its columns. */
  tables: Map<string, Set<string>>;
  /** The user model's table: auth_user unless the deployment has its own. */
  userTable: string;
}

export class SourceError extends Error {
  override name = 'SourceError';
}

/** Opens `sqlite:<path>` (read-only) or `postgres://...`; throws SourceError when it cannot be read. */
export async function openAllauthSource(url: string, userTable: string): Promise<AllauthSource> {
  const dialect = url.startsWith('sqlite:') ? 'sqlite' : /^postgres(ql)?:\/\//.test(url) ? 'postgres' : undefined;
  if (!dialect) throw new SourceError('expected sqlite:<path> or postgres://user@host:port/db');
  let conn: Kysely<AllauthDatabase>;
  if (dialect === 'sqlite') {
    let file: SQLite.Database;
    try {
      file = new SQLite(url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    } catch (error) {
      throw new SourceError(`cannot open ${url.slice('sqlite:'.length)}: ${(error as Error).message}`);
    }
    conn = new Kysely({ dialect: new SqliteDialect({ database: file }) });
  } else {
    // Times stay Date objects; int8 ids and counts fit a number.
    conn = new Kysely({ dialect: new PostgresDialect({ pool: new (loadPg().Pool)({ connectionString: url, max: 1, types: int8AsNumber() }) }) });
  }
  try {
    const tables = new Map<string, Set<string>>();
    for (const table of await conn.introspection.getTables()) {
      // On PostgreSQL, the public schema's table wins over a namesake elsewhere.
      if (!tables.has(table.name) || table.schema === 'public') tables.set(table.name, new Set(table.columns.map((c) => c.name)));
    }
    return { conn, dialect, tables, userTable };
  } catch (error) {
    await conn.destroy();
    throw new SourceError(`cannot read the database: ${(error as Error).message}`);
  }
}

/** Closes what openAllauthSource opened (not a snapshot of it). */
export async function closeAllauthSource(source: AllauthSource): Promise<void> {
  await source.conn.destroy();
}

/**
 * Runs `read` on one consistent snapshot of a PostgreSQL source (a read-only
 * repeatable-read transaction), so a user and their addresses read in
 * different batches cannot disagree. A SQLite source is read without one: a
 * read transaction there would hold a lock that stops the old deployment's
 * writers for as long as the import runs.
 */
export async function inSnapshot<T>(source: AllauthSource, read: (snapshot: AllauthSource) => Promise<T>): Promise<T> {
  if (source.dialect === 'sqlite') return read(source);
  return source.conn
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((trx) => read({ ...source, conn: trx }));
}

export function hasColumn(source: AllauthSource, table: string, column: string): boolean {
  return source.tables.get(table)?.has(column) ?? false;
}

/** A time as the source stores it, in milliseconds; null for null. */
export function sourceMillis(value: SourceTime | null): number | null {
  if (value === null) return null;
  if (value instanceof Date) return value.getTime();
  // SQLite: "YYYY-MM-DD HH:MM:SS[.ffffff]" in UTC under USE_TZ (the fraction
  // is left off when it is zero), possibly with an offset if another tool wrote it.
  const match = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d:?\d\d)?$/.exec(value.trim());
  if (!match) throw new SourceError(`unreadable time "${value}"`);
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = match;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(fraction.padEnd(3, '0').slice(0, 3)));
  if (zone === 'Z') return utc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return utc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

/** A time in the form the source compares with its own column (for WHERE clauses). */
export function sourceTime(source: AllauthSource, millis: number): SourceTime {
  if (source.dialect === 'postgres') return new Date(millis);
  // Same text form as Django writes, so SQLite's text comparison orders correctly.
  return new Date(millis).toISOString().replace('T', ' ').replace('Z', '000');
}

export function sourceBool(value: SourceBool): boolean {
  return value === true || value === 1;
}

/** A JSON object column, or null when it holds something else or no JSON at all. */
export function sourceJson(value: SourceJson): Record<string, unknown> | null {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
}
