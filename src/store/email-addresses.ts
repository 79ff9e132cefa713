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
