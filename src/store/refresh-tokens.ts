import type { Conn } from './db.js';

// Issued refresh tokens, by SHA-256 of the token. A rotation chain is a
// family; `used_at` marks a token that has been rotated away.

export interface RefreshTokenRecord {
  id: number;
  familyId: string;
  sessionId: number;
  expiresAt: number;
  usedAt: number | null;
  successorId: number | null;
  /** The successor, encrypted under the token it replaced (reuse grace window only). */
  successorSealed: string | null;
}

const COLUMNS = ['id', 'family_id', 'session_id', 'expires_at', 'used_at', 'successor_id', 'successor_sealed'] as const;

function toRecord(row: { id: number; family_id: string; session_id: number; expires_at: number; used_at: number | null; successor_id: number | null; successor_sealed: string | null }): RefreshTokenRecord {
  return {
    id: row.id,
    familyId: row.family_id,
    sessionId: row.session_id,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    successorId: row.successor_id,
    successorSealed: row.successor_sealed,
  };
}

export async function insertRefreshToken(conn: Conn, input: { tokenHash: string; familyId: string; sessionId: number; now: number; expiresAt: number }): Promise<number> {
  const row = await conn
    .insertInto('refresh_tokens')
    .values({ token_hash: input.tokenHash, family_id: input.familyId, session_id: input.sessionId, created_at: input.now, expires_at: input.expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findRefreshToken(conn: Conn, tokenHash: string): Promise<RefreshTokenRecord | null> {
  const row = await conn.selectFrom('refresh_tokens').select(COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findRefreshTokenById(conn: Conn, id: number): Promise<RefreshTokenRecord | null> {
  const row = await conn.selectFrom('refresh_tokens').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/**
 * Marks the token used unless someone already has. This conditional update
 * is the one step that lets a token rotate at most once, however many
 * requests present it at the same moment.
 */
export async function claimRefreshToken(conn: Conn, id: number, now: number): Promise<boolean> {
  const result = await conn.updateTable('refresh_tokens').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function linkSuccessor(conn: Conn, id: number, successorId: number, sealed: string | null): Promise<void> {
  await conn.updateTable('refresh_tokens').set({ successor_id: successorId, successor_sealed: sealed }).where('id', '=', id).execute();
}

export async function deleteRefreshTokenFamily(conn: Conn, familyId: string): Promise<void> {
  await conn.deleteFrom('refresh_tokens').where('family_id', '=', familyId).execute();
}

/** Expired tokens can no longer be presented (their JWT fails first), so their rows can go. */
export async function deleteExpiredRefreshTokens(conn: Conn, sessionId: number, now: number): Promise<void> {
  await conn.deleteFrom('refresh_tokens').where('session_id', '=', sessionId).where('expires_at', '<=', now).execute();
}
