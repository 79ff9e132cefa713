import type { Conn } from './db.js';

/**
 * Records that an ID token (by the hash of its issuer and jti) was accepted.
 * False when it already was: the primary key decides, across instances.
 */
export async function recordTokenUse(conn: Conn, keyHash: string, expiresAt: number): Promise<boolean> {
  const row = await conn
    .insertInto('social_token_uses')
    .values({ key_hash: keyHash, expires_at: expiresAt })
    .onConflict((oc) => oc.column('key_hash').doNothing())
    .returning('key_hash')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteExpiredTokenUses(conn: Conn, now: number): Promise<void> {
  await conn.deleteFrom('social_token_uses').where('expires_at', '<=', now).execute();
}
