import type { Conn } from '../../store/db.js';
import type { Session } from '../../domain/session.js';
import { deleteUserSessions, deleteUserSessionsById, listUserSessions } from '../../store/sessions.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import { revokeProviderGrants } from '../idp/grant-revocation.js';
import type { AdminDeps } from './webhooks.js';

// Ending a user's sessions on an administrator's word: revoked outright, or
// as part of disabling the account or setting its password.

export type RevokeResult = { ok: true; ended: number } | { ok: false; reason: 'not_found'; id: number };

/**
 * Ends some (`ids`) or all of a user's live sessions, in `conn`'s
 * transaction. Their cookies, session tokens and refresh tokens stop working
 * at once; JWT access tokens do too where stateful validation is on, and run
 * out within their lifetime otherwise.
 */
export async function endSessions(conn: Conn, userId: number, ids: readonly number[] | 'all', now: number): Promise<RevokeResult> {
  const live = await listUserSessions(conn, userId, now);
  if (ids === 'all') {
    await deleteUserSessions(conn, userId, null);
    return { ok: true, ended: live.length };
  }
  const own = new Set(live.map((s) => s.id));
  const unknown = ids.find((id) => !own.has(id));
  if (unknown !== undefined) return { ok: false, reason: 'not_found', id: unknown };
  const distinct = [...new Set(ids)];
  await deleteUserSessionsById(conn, userId, distinct);
  return { ok: true, ended: distinct.length };
}

/** A user's live sessions, oldest first. */
export function liveSessionsOf(deps: AdminDeps, userId: number, now: number): Promise<Session[]> {
  return listUserSessions(deps.db, userId, now);
}

/**
 * Revokes sessions of a user, with a `session.revoked` event naming how many.
 * Ending all of them also revokes the user's OpenID provider grants: "sign
 * out everywhere" includes the applications signed in through this server.
 * Ending some does not, as the provider's tokens belong to no one session.
 */
export async function revokeSessions(deps: AdminDeps, source: AuditSource, userId: number, ids: readonly number[] | 'all'): Promise<RevokeResult> {
  return deps.db.transaction().execute(async (tx) => {
    const result = await endSessions(tx, userId, ids, source.now);
    if (result.ok) await recordEvent(deps, tx, source, 'session.revoked', { userId, detail: { sessions: result.ended } });
    if (result.ok && ids === 'all') await revokeProviderGrants(deps, tx, source, userId);
    return result;
  });
}
