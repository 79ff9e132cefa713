import type { Deps, RequestContext } from '../context.js';
import { notAuthenticated, type Outcome } from '../outcome.js';
import { deleteUserSessions } from '../../store/sessions.js';
import { deleteUser } from '../../store/users.js';
import { recordAccountDeletion } from '../../store/account-deletions.js';
import { requireRecentAuthentication } from '../auth/reauthentication.js';
import { recordEvent } from '../../audit/recorder.js';
import { revokeProviderGrants } from '../idp/grant-revocation.js';

/**
 * DELETE /account (beyond the reference): the user deletes their own
 * account after a recent reauthentication. Sessions, addresses, keys and
 * OpenID provider grants go with it in one transaction, the addresses become free for a new signup,
 * and the deletion is recorded (who, when, from where; no personal data).
 */
export async function deleteAccount(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const { user, session } = ctx;
  if (!user || !session) return notAuthenticated;
  // Beyond the reference, so stricter than it: no recent proof, no deletion.
  const stale = await requireRecentAuthentication(deps, session, user, ctx.now, { strict: true });
  if (stale) return stale;
  await deps.db.transaction().execute(async (tx) => {
    // Explicit, not only by cascade: tokens bound to these sessions must die with them.
    await deleteUserSessions(tx, user.id, null);
    if (await deleteUser(tx, user.id)) {
      await recordAccountDeletion(tx, { userId: user.id, now: ctx.now, ip: ctx.ip, userAgent: ctx.userAgent });
      await recordEvent(deps, tx, ctx, 'account.deleted', { userId: user.id });
      await revokeProviderGrants(deps, tx, ctx, user.id);
    }
  });
  deps.log.info({ userId: user.id }, 'account deleted by its user');
  return { kind: 'auth', session: null, user: null, sessionEnded: true };
}
