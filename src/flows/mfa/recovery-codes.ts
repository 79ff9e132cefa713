import type { Deps, RequestContext } from '../context.js';
import type { Conn } from '../../store/db.js';
import { invalid, notAuthenticated, notFound, type Outcome } from '../outcome.js';
import { sealContext } from '../../domain/authenticator.js';
import { deleteAuthenticators, findAuthenticator, insertRecoveryCodes, listAuthenticators, markRecoveryCodesViewed } from '../../store/mfa-authenticators.js';
import { newRecoverySeed } from '../../security/recovery-codes.js';
import { requireRecentAuthentication } from '../auth/reauthentication.js';
import { describeAuthenticator } from './authenticators.js';
import { notify } from '../notice.js';
import { recordEvent } from '../../audit/recorder.js';

// GET|POST /account/authenticators/recovery-codes. The codes derive from a
// seed sealed at rest; a used code is a bit in the authenticator's mask.

/**
 * Gives the user a set of recovery codes unless they have one: done with
 * their first TOTP or WebAuthn authenticator, as in the reference. True
 * when it made them.
 */
export async function ensureRecoveryCodes(deps: Deps, conn: Conn, userId: number, now: number): Promise<boolean> {
  if (!deps.config.mfa.supportedTypes.includes('recovery_codes')) return false;
  const sealed = deps.atRest.seal(newRecoverySeed(), sealContext('recovery_codes', userId));
  return (await insertRecoveryCodes(conn, userId, sealed, now)) !== null;
}

/** The events of recovery codes that went with the last other second factor, on that removal's connection. */
export async function recordCodesRemoved(deps: Deps, conn: Conn, ctx: RequestContext, userId: number, ids: number[]): Promise<void> {
  for (const id of ids) await recordEvent(deps, conn, ctx, 'authenticator.removed', { userId, detail: { authenticator: 'recovery_codes', authenticator_id: id } });
}

/**
 * GET: the codes, unused ones listed, after a recent authentication. With
 * MFA_RECOVERY_CODES_SHOW_ONCE only the first view (or the one right after
 * regenerating) lists them.
 */
export async function viewRecoveryCodes(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const codes = await findAuthenticator(deps.db, user.id, 'recovery_codes');
  if (!codes) return notFound;
  const stale = await requireRecentAuthentication(deps, session, user, ctx.now);
  if (stale) return stale;
  const firstView = codes.viewedAt === null && (await markRecoveryCodesViewed(deps.db, codes.id, ctx.now));
  const show = !deps.config.mfa.recoveryCodes.showOnce || firstView;
  return { kind: 'authenticator', authenticator: describeAuthenticator(deps, codes, show) };
}

/** POST: a new set; every earlier code stops working (and so does any trust in a browser). */
export async function regenerateRecoveryCodes(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const authenticators = await listAuthenticators(deps.db, user.id);
  if (!authenticators.some((a) => a.type !== 'recovery_codes')) return invalid({ code: 'cannot_generate_recovery_codes' });
  const stale = await requireRecentAuthentication(deps, session, user, ctx.now);
  if (stale) return stale;
  const old = authenticators.filter((a) => a.type === 'recovery_codes').map((a) => a.id);
  await deps.db.transaction().execute(async (tx) => {
    await deleteAuthenticators(tx, user.id, old);
    await ensureRecoveryCodes(deps, tx, user.id, ctx.now);
    await recordEvent(deps, tx, ctx, 'recovery_codes.regenerated', { userId: user.id });
  });
  await notify(deps, ctx, 'mfa/email/recovery_codes_generated', user.email);
  const codes = await findAuthenticator(deps.db, user.id, 'recovery_codes');
  if (!codes) return notFound;
  await markRecoveryCodesViewed(deps.db, codes.id, ctx.now);
  return { kind: 'authenticator', authenticator: describeAuthenticator(deps, codes, true) };
}
