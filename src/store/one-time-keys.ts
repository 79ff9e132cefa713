import type { Conn } from './db.js';

export type KeyPurpose = 'email_verification';

export interface OneTimeKey {
  id: number;
  purpose: KeyPurpose;
  userId: number;
  emailAddressId: number | null;
  email: string;
  createdAt: number;
  expiresAt: number;
}

export async function insertOneTimeKey(
  conn: Conn,
  input: { purpose: KeyPurpose; keyHash: string; userId: number; emailAddressId: number | null; email: string; now: number; expiresAt: number },
): Promise<void> {
  await conn
    .insertInto('one_time_keys')
    .values({
      purpose: input.purpose,
      key_hash: input.keyHash,
      user_id: input.userId,
      email_address_id: input.emailAddressId,
      email: input.email,
      created_at: input.now,
      expires_at: input.expiresAt,
    })
    .execute();
}

/** An unused, unexpired key of the given purpose, or null. */
export async function findUsableKey(conn: Conn, purpose: KeyPurpose, keyHash: string, now: number): Promise<OneTimeKey | null> {
  const row = await conn
    .selectFrom('one_time_keys')
    .select(['id', 'purpose', 'user_id', 'email_address_id', 'email', 'created_at', 'expires_at'])
    .where('key_hash', '=', keyHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    purpose: row.purpose as KeyPurpose,
    userId: row.user_id,
    emailAddressId: row.email_address_id,
    email: row.email,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** Spends the key; false when a concurrent request spent it first. */
export async function spendKey(conn: Conn, id: number, now: number): Promise<boolean> {
  const result = await conn
    .updateTable('one_time_keys')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteExpiredKeys(conn: Conn, now: number): Promise<void> {
  await conn.deleteFrom('one_time_keys').where('expires_at', '<=', now).execute();
}
