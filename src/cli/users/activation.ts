import type { CliContext } from '../context.js';
import type { User } from '../../domain/user.js';
import { setUserActive } from '../../store/users.js';
import { endSessions } from '../sessions/manage.js';
import { cliSource, recordEvent } from '../../flows/audit.js';

/**
 * Disables or enables login. Disabling also ends every session of the user,
 * so that it takes effect at once rather than when those sessions expire.
 * Answers how many live sessions it ended.
 */
export async function setActive(ctx: CliContext, user: User, active: boolean): Promise<number> {
  const now = ctx.now();
  return ctx.db.transaction().execute(async (tx) => {
    await setUserActive(tx, user.id, active);
    const ended = active ? 0 : await endSessions(tx, user.id, 'all', now);
    await recordEvent(ctx, tx, cliSource(now), active ? 'account.enabled' : 'account.disabled', { userId: user.id, detail: active ? {} : { sessions: ended } });
    return ended;
  });
}
