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
 * Which users hold the given addresses verified, by lower-cased address.
 * allauth lets an unverified address repeat across users; a verified one is
 * its owner's. Matched as given and lower-cased (allauth stores addresses
 * lower-cased), so that the email index serves: lower(email) would read the
 * whole table for every batch.
 */
export async function readVerifiedHolders(source: AllauthSource, emails: string[]): Promise<Array<{ userId: number; emailLower: string }>> {
  if (emails.length === 0 || !source.tables.has('account_emailaddress')) return [];
  const rows = await source.conn
    .selectFrom('account_emailaddress')
    .select(['user_id', 'email'])
    .where('email', 'in', [...new Set([...emails, ...emails.map((e) => e.toLowerCase())])])
    // A bare boolean column: true on PostgreSQL, non-zero on SQLite.
    .where(sql<SqlBool>`${sql.ref('verified')}`)
    .execute();
  return rows.map((row) => ({ userId: Number(row.user_id), emailLower: row.email.toLowerCase() }));
}
