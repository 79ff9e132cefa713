import type { Session } from '../../domain/session.js';
import { formatTime, isoTime, table } from '../output.js';

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
