import { sql, type SqlBool } from 'kysely';
import { sourceBool, type AllauthSource } from './source.js';

/** A row of allauth's account_emailaddress. */
export interface SourceEmailAddress {
  id: number;
  userId: number;
  email: string;
  verified: boolean;
  primary: boolean;
}

/** The addresses of the given users, by user then id. */
export async function readEmailAddresses(source: AllauthSource, userIds: number[]): Promise<SourceEmailAddress[]> {
  if (userIds.length === 0 || !source.tables.has('account_emailaddress')) return [];
  const rows = await source.conn
    .selectFrom('account_emailaddress')
    .select(['id', 'user_id', 'email', 'verified', 'primary'])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: Number(row.id), userId: Number(row.user_id), email: row.email, verified: sourceBool(row.verified), primary: sourceBool(row.primary) }));
}

/**
 * Which users hold the given addresses verified (lower-cased, compared with
 * the database's lower(): on SQLite that folds ASCII letters only). allauth
 * lets an unverified address repeat across users; a verified one is its
 * owner's.
 */
export async function readVerifiedHolders(source: AllauthSource, emailsLower: string[]): Promise<Array<{ userId: number; emailLower: string }>> {
  if (emailsLower.length === 0 || !source.tables.has('account_emailaddress')) return [];
  const rows = await source.conn
    .selectFrom('account_emailaddress')
    .select(['user_id', 'email'])
    // A bare boolean column: true on PostgreSQL, non-zero on SQLite.
    .where(sql<SqlBool>`${sql.ref('verified')}`)
    .where(sql<string>`lower(${sql.ref('email')})`, 'in', emailsLower)
    .execute();
  return rows.map((row) => ({ userId: Number(row.user_id), emailLower: row.email.toLowerCase() }));
}
