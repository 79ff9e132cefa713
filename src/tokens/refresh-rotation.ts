import type { Db, Tx } from '../store/db.js';
import {
  claimRefreshToken,
  deleteExpiredRefreshTokens,
  deleteRefreshTokenFamily,
  findRefreshTokenById,
  insertRefreshToken,
  linkSuccessor,
  type RefreshTokenRecord,
} from '../store/refresh-tokens.js';
import { deleteSession } from '../store/sessions.js';
import { sealSuccessor, unsealSuccessor } from './seal.js';

// Rotation with reuse detection. A refresh token rotates at most once (an
// atomic conditional update); presenting it again means it was copied, so
// the whole family and its session are revoked. The optional grace window
// answers a retry of a lost response with the same successor instead, so
// there is never a second, independent chain.

export interface Successor {
  token: string;
  hash: string;
  expiresAt: number;
}

export type Rotation = { kind: 'rotated' } | { kind: 'replayed'; successor: string } | { kind: 'reused' };

export async function rotateRefreshToken(
  db: Db,
  record: RefreshTokenRecord,
  presented: string,
  successor: Successor,
  opts: { now: number; graceMs: number; /** Written in the revoking transaction (the audit event). */ onReuse?: (tx: Tx) => Promise<void> },
): Promise<Rotation> {
  const { now, graceMs } = opts;
  if (record.usedAt === null) {
    const won = await db.transaction().execute(async (tx) => {
      if (!(await claimRefreshToken(tx, record.id, now))) return false;
      const id = await insertRefreshToken(tx, { tokenHash: successor.hash, familyId: record.familyId, sessionId: record.sessionId, now, expiresAt: successor.expiresAt });
      await linkSuccessor(tx, record.id, id, graceMs > 0 ? sealSuccessor(successor.token, presented) : null);
      await deleteExpiredRefreshTokens(tx, record.sessionId, now);
      return true;
    });
    if (won) return { kind: 'rotated' };
  }
  // Read again: the rotation that beat this request is committed by now.
  const current = await findRefreshTokenById(db, record.id);
  const replay = current && graceMs > 0 ? await graceSuccessor(db, current, presented, now, graceMs) : null;
  if (replay) return { kind: 'replayed', successor: replay };
  await db.transaction().execute(async (tx) => {
    await deleteRefreshTokenFamily(tx, record.familyId);
    await deleteSession(tx, record.sessionId);
    await opts.onReuse?.(tx);
  });
  return { kind: 'reused' };
}

/** The successor a retry within the window gets, as long as nobody has used it yet. */
async function graceSuccessor(db: Db, record: RefreshTokenRecord, presented: string, now: number, graceMs: number): Promise<string | null> {
  if (record.usedAt === null || now - record.usedAt > graceMs || record.successorId === null || record.successorSealed === null) return null;
  const next = await findRefreshTokenById(db, record.successorId);
  if (!next || next.usedAt !== null) return null;
  return unsealSuccessor(record.successorSealed, presented);
}
