import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import type { User } from '../../domain/user.js';
import { passwordErrors } from '../../flows/validate.js';
import { hashPassword } from '../../security/passwords.js';
import { setPasswordHash } from '../../store/users.js';
import { endSessions } from '../sessions/manage.js';
import { cliSource, recordEvent } from '../../flows/audit.js';

/**
 * Sets a user's password under the password policy. Like a reset, it ends the
 * user's sessions (unless `keepSessions`) and voids reset links and codes
 * issued before it. Answers how many live sessions it ended.
 */
export async function setPassword(ctx: CliContext, user: User, password: string, keepSessions: boolean): Promise<number> {
  const problems = passwordErrors(ctx.config, password, 'password', [user.username, user.email]);
  if (problems.length > 0) throw CliError.fromFields(problems);
  const hash = await hashPassword(password);
  const now = ctx.now();
  return ctx.db.transaction().execute(async (tx) => {
    await setPasswordHash(tx, user.id, hash, now);
    const ended = keepSessions ? 0 : await endSessions(tx, user.id, 'all', now);
    await recordEvent(ctx, tx, cliSource(now), 'password.changed', { userId: user.id, detail: { sessions: ended } });
    return ended;
  });
}
