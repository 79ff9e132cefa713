import type { Conn } from './db.js';

export interface EmailAddress {
  id: number;
  userId: number;
  email: string;
  verified: boolean;
  primary: boolean;
}

function toEmailAddress(row: { id: number; user_id: number; email: string; verified: number; is_primary: number }): EmailAddress {
  return { id: row.id, userId: row.user_id, email: row.email, verified: row.verified === 1, primary: row.is_primary === 1 };
}

export async function findEmailAddress(conn: Conn, email: string): Promise<EmailAddress | null> {
  const row = await conn
    .selectFrom('email_addresses')
    .select(['id', 'user_id', 'email', 'verified', 'is_primary'])
    .where('email_lower', '=', email.toLowerCase())
    .executeTakeFirst();
  return row ? toEmailAddress(row) : null;
}

/** The addresses among `emails` that someone holds, compared case-insensitively. */
export async function findEmailAddresses(conn: Conn, emails: string[]): Promise<EmailAddress[]> {
  if (emails.length === 0) return [];
  const rows = await conn
    .selectFrom('email_addresses')
    .select(['id', 'user_id', 'email', 'verified', 'is_primary'])
    .where('email_lower', 'in', emails.map((e) => e.toLowerCase()))
    .execute();
  return rows.map(toEmailAddress);
}

export async function findEmailAddressById(conn: Conn, id: number): Promise<EmailAddress | null> {
  const row = await conn
    .selectFrom('email_addresses')
    .select(['id', 'user_id', 'email', 'verified', 'is_primary'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toEmailAddress(row) : null;
}

/** Marks the address verified; true when this call changed it. */
export async function markEmailVerified(conn: Conn, id: number): Promise<boolean> {
  const result = await conn
    .updateTable('email_addresses')
    .set({ verified: 1 })
    .where('id', '=', id)
    .where('verified', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A user's addresses, the primary one first. */
export async function listUserEmailAddresses(conn: Conn, userId: number): Promise<EmailAddress[]> {
  const rows = await conn
    .selectFrom('email_addresses')
    .select(['id', 'user_id', 'email', 'verified', 'is_primary'])
    .where('user_id', '=', userId)
    .orderBy('is_primary', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toEmailAddress);
}

/**
 * Adds an address; null when it is taken, by anyone, meanwhile included:
 * the unique index decides, so two accounts can never both win it.
 */
export async function insertEmailAddress(
  conn: Conn,
  input: { userId: number; email: string; primary: boolean; verified?: boolean; now: number },
): Promise<EmailAddress | null> {
  const row = await conn
    .insertInto('email_addresses')
    .values({
      user_id: input.userId,
      email: input.email,
      email_lower: input.email.toLowerCase(),
      verified: input.verified ? 1 : 0,
      is_primary: input.primary ? 1 : 0,
      created_at: input.now,
    })
    .onConflict((oc) => oc.column('email_lower').doNothing())
    .returning(['id', 'user_id', 'email', 'verified', 'is_primary'])
    .executeTakeFirst();
  return row ? toEmailAddress(row) : null;
}

/** Deletes an address; false when it was already gone. */
export async function deleteEmailAddress(conn: Conn, id: number): Promise<boolean> {
  const result = await conn.deleteFrom('email_addresses').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Deletes the user's addresses other than `keepId`, e.g. the old one once a
 * change is verified. Answers the addresses deleted, for their events.
 */
export async function deleteOtherEmailAddresses(conn: Conn, userId: number, keepId: number, opts: { onlyUnverified?: boolean } = {}): Promise<string[]> {
  let query = conn.deleteFrom('email_addresses').where('user_id', '=', userId).where('id', '!=', keepId);
  if (opts.onlyUnverified) query = query.where('verified', '=', 0).where('is_primary', '=', 0);
  const rows = await query.returning('email').execute();
  return rows.map((r) => r.email);
}

/** Makes `id` the user's one primary address; run in a transaction. */
export async function setPrimaryEmailAddress(conn: Conn, userId: number, id: number): Promise<void> {
  await conn.updateTable('email_addresses').set({ is_primary: 0 }).where('user_id', '=', userId).where('id', '!=', id).execute();
  await conn.updateTable('email_addresses').set({ is_primary: 1 }).where('id', '=', id).where('user_id', '=', userId).execute();
}
