import type { User } from '../../domain/user.js';
import type { FieldError } from '../outcome.js';
import { passwordErrors } from '../validate.js';
import { hashPassword } from '../../security/passwords.js';
import { setPasswordHash, setUserActive } from '../../store/users.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import { endSessions } from './sessions.js';
import type { AdminDeps } from './webhooks.js';

// An administrator's changes to an account: enabling or disabling it, and
// setting its password. Each ends the sessions it must at once.

/**
 * Disables or enables login. Disabling also ends every session of the user,
 * so that it takes effect at once rather than when those sessions expire.
 * Answers how many live sessions it ended.
 */
export async function setActive(deps: AdminDeps, source: AuditSource, user: User, active: boolean): Promise<number> {
  return deps.db.transaction().execute(async (tx) => {
    await setUserActive(tx, user.id, active);
    const ended = active ? 0 : await endAll(tx, user.id, source.now);
    await recordEvent(deps, tx, source, active ? 'account.enabled' : 'account.disabled', { userId: user.id, detail: active ? {} : { sessions: ended } });
    return ended;
  });
}

/**
 * Sets a user's password under the password policy. Like a reset, it ends the
 * user's sessions (unless `keepSessions`) and voids reset links and codes
 * issued before it. Answers how many live sessions it ended, or what is
 * wrong with the password.
 */
export async function setPassword(
  deps: AdminDeps,
  source: AuditSource,
  user: User,
  password: string,
  keepSessions: boolean,
): Promise<{ ok: true; ended: number } | { ok: false; errors: FieldError[] }> {
  const problems = passwordErrors(deps.config, password, 'password', [user.username, user.email]);
  if (problems.length > 0) return { ok: false, errors: problems };
  const hash = await hashPassword(password);
  return deps.db.transaction().execute(async (tx) => {
    await setPasswordHash(tx, user.id, hash, source.now);
    const ended = keepSessions ? 0 : await endAll(tx, user.id, source.now);
    await recordEvent(deps, tx, source, 'password.changed', { userId: user.id, detail: { sessions: ended } });
    return { ok: true as const, ended };
  });
}

async function endAll(conn: Parameters<typeof endSessions>[0], userId: number, now: number): Promise<number> {
  const result = await endSessions(conn, userId, 'all', now);
  return result.ok ? result.ended : 0;
}
