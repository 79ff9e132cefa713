import type { Conn } from './db.js';

// The admin_api_keys table: keys of the admin REST API, by the hash of the key.

export type AdminKeyScope = 'read' | 'write';

export interface AdminApiKey {
  id: number;
  name: string;
  scope: AdminKeyScope;
  /** The key's first characters, to tell keys apart in a listing. */
  prefix: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

type Row = { id: number; name: string; scope: string; prefix: string; created_at: number; expires_at: number | null; revoked_at: number | null; last_used_at: number | null };

const COLUMNS = ['id', 'name', 'scope', 'prefix', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'] as const;

function toKey(row: Row): AdminApiKey {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as AdminKeyScope,
    prefix: row.prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

export async function insertAdminApiKey(
  conn: Conn,
  input: { name: string; scope: AdminKeyScope; prefix: string; keyHash: string; now: number; expiresAt: number | null },
): Promise<AdminApiKey> {
  const row = await conn
    .insertInto('admin_api_keys')
    .values({ name: input.name, scope: input.scope, prefix: input.prefix, key_hash: input.keyHash, created_at: input.now, expires_at: input.expiresAt })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toKey(row);
}

/** The key with this hash, revoked or expired included (the caller decides); one lookup on a unique index. */
export async function findAdminApiKeyByHash(conn: Conn, keyHash: string): Promise<AdminApiKey | null> {
  const row = await conn.selectFrom('admin_api_keys').select(COLUMNS).where('key_hash', '=', keyHash).executeTakeFirst();
  return row ? toKey(row) : null;
}

export async function findAdminApiKey(conn: Conn, id: number): Promise<AdminApiKey | null> {
  const row = await conn.selectFrom('admin_api_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toKey(row) : null;
}

/** Every key, oldest first. */
export async function listAdminApiKeys(conn: Conn): Promise<AdminApiKey[]> {
  const rows = await conn.selectFrom('admin_api_keys').select(COLUMNS).orderBy('id').execute();
  return rows.map(toKey);
}

/** Revokes a key not revoked yet; false when it was (or does not exist). */
export async function revokeAdminApiKey(conn: Conn, id: number, now: number): Promise<boolean> {
  const result = await conn.updateTable('admin_api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sets (or with null removes) a key's expiry. */
export async function setAdminApiKeyExpiry(conn: Conn, id: number, expiresAt: number | null): Promise<boolean> {
  const result = await conn.updateTable('admin_api_keys').set({ expires_at: expiresAt }).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records a use, unless one was recorded since `notBefore`: at most one write
 * per key per interval however busy the key, and the condition keeps
 * concurrent instances from writing it twice.
 */
export async function touchAdminApiKey(conn: Conn, id: number, now: number, notBefore: number): Promise<void> {
  await conn
    .updateTable('admin_api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notBefore)]))
    .execute();
}
