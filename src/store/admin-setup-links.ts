import type { Conn } from './db.js';

// The admin_setup_links table: one-time console setup links, by id, with
// the hash of their secret.

export interface AdminSetupLink {
  id: number;
  userId: number;
  /** SHA-256 (hex) of the secret. */
  secretHash: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

const COLUMNS = ['id', 'user_id', 'secret_hash', 'created_at', 'expires_at', 'used_at'] as const;

type Row = { id: number; user_id: number; secret_hash: string; created_at: number; expires_at: number; used_at: number | null };

const toLink = (row: Row): AdminSetupLink => ({
  id: row.id,
  userId: row.user_id,
  secretHash: row.secret_hash,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
  usedAt: row.used_at === null ? null : Number(row.used_at),
});

/** A new link for the user; their earlier links stop working. */
export async function replaceSetupLink(conn: Conn, input: { userId: number; secretHash: string; now: number; expiresAt: number }): Promise<AdminSetupLink> {
  await conn.deleteFrom('admin_setup_links').where('user_id', '=', input.userId).execute();
  const row = await conn
    .insertInto('admin_setup_links')
    .values({ user_id: input.userId, secret_hash: input.secretHash, created_at: input.now, expires_at: input.expiresAt })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toLink(row);
}

export async function findSetupLink(conn: Conn, id: number): Promise<AdminSetupLink | null> {
  const row = await conn.selectFrom('admin_setup_links').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toLink(row) : null;
}

/** Spends a link still unused and unexpired; false when a parallel request spent it first (or it expired). */
export async function spendSetupLink(conn: Conn, id: number, now: number): Promise<boolean> {
  const result = await conn
    .updateTable('admin_setup_links')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
