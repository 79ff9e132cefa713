import type { Conn } from '../../store/db.js';
import type { Session } from '../../domain/session.js';
import { deleteUserSessions, deleteUserSessionsById, listUserSessions } from '../../store/sessions.js';
import { formatTime, isoTime, table } from '../output.js';
import { CliError } from '../errors.js';

/**
 * Ends some (`ids`) or all of a user's live sessions, answering how many it
 * ended. Their cookies, session tokens and refresh tokens stop working at
 * once; JWT access tokens do too where stateful validation is on, and run
 * out within their lifetime otherwise.
 */
export async function endSessions(conn: Conn, userId: number, ids: number[] | 'all', now: number): Promise<number> {
  const live = await listUserSessions(conn, userId, now);
  if (ids === 'all') {
    await deleteUserSessions(conn, userId, null);
    return live.length;
  }
  const own = new Set(live.map((s) => s.id));
  const unknown = ids.find((id) => !own.has(id));
  if (unknown !== undefined) throw CliError.of('not_found', `the user has no live session ${unknown}`, 'session');
  await deleteUserSessionsById(conn, userId, [...new Set(ids)]);
  return new Set(ids).size;
}

export function sessionJson(session: Session) {
  return {
    id: session.id,
    created_at: isoTime(session.createdAt),
    last_seen_at: isoTime(session.lastSeenAt),
    expires_at: isoTime(session.expiresAt),
    ip: session.ip,
    user_agent: session.userAgent,
    methods: session.methods.map((m) => m.method),
  };
}

export function sessionsText(sessions: Session[]): string {
  if (sessions.length === 0) return 'no live sessions';
  return table(
    ['ID', 'CREATED', 'LAST SEEN', 'EXPIRES', 'IP', 'METHODS', 'USER AGENT'],
    sessions.map((s) => [
      String(s.id),
      formatTime(s.createdAt),
      formatTime(s.lastSeenAt),
      formatTime(s.expiresAt),
      s.ip || '-',
      s.methods.map((m) => m.method).join(',') || '-',
      s.userAgent || '-',
    ]),
  );
}
