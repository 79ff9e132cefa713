import type { Deps, RequestContext } from '../context.js';
import type { Session, VerifyEmailFlow } from '../../domain/session.js';
import { conflict, invalid, type AuthState, type Outcome } from '../outcome.js';
import { hashSecret } from '../../security/secrets.js';
import { findUsableKey, spendKey } from '../../store/one-time-keys.js';
import { findEmailAddressById, markEmailVerified } from '../../store/email-addresses.js';
import { findUserById } from '../../store/users.js';
import { replaceFlow, updateSessionState } from '../../store/sessions.js';
import { checkFlowCode } from '../code-attempt.js';
import { passVerification } from '../login/pipeline.js';
import { settleVerifiedAddress } from './verified-address.js';
import { notify } from '../notice.js';
import { recordEvent, recordFailure } from '../../audit/recorder.js';
import { sendVerification } from './verification-message.js';

// Verifying an address by its link or code (sent by verification-message.ts),
// and completing the login that waited for it.

function pendingVerification(session: Session | null): VerifyEmailFlow | null {
  return session?.flow?.id === 'verify_email' ? session.flow : null;
}

type CodeCheck = { ok: true; flow: VerifyEmailFlow; session: Session } | { ok: false; outcome: Outcome };

async function checkCode(deps: Deps, ctx: RequestContext, code: string, lookup: boolean): Promise<CodeCheck> {
  const session = ctx.session;
  const flow = pendingVerification(session);
  if (!session || !flow || flow.codeHash === null) return { ok: false, outcome: conflict };
  const holder = { codeHash: flow.codeHash, expiresAt: flow.codeExpiresAt ?? 0, userId: flow.userId };
  const verdict = await checkFlowCode(deps, session, holder, code, deps.config.account.emailVerificationByCodeMaxAttempts, ctx.now, { lookup });
  if (verdict === 'gone') return { ok: false, outcome: conflict };
  if (verdict === 'wrong') return { ok: false, outcome: invalid({ code: 'incorrect_code', param: 'key' }) };
  return { ok: true, flow, session };
}

/** GET /auth/email/verify: what a key or code would verify, without verifying. */
export async function describeVerification(deps: Deps, ctx: RequestContext, key: string): Promise<Outcome> {
  if (deps.config.account.emailVerificationByCode) {
    const check = await checkCode(deps, ctx, key, true);
    if (!check.ok) return check.outcome;
    const user = check.flow.userId === null ? null : await findUserById(deps.db, check.flow.userId);
    return { kind: 'verification_info', email: check.flow.email, user, isAuthenticating: check.flow.login !== null };
  }
  const found = await findUsableKey(deps.db, 'email_verification', hashSecret(key), ctx.now);
  if (!found) return invalid({ code: 'invalid_or_expired_key', param: 'key' });
  const user = await findUserById(deps.db, found.userId);
  const flow = pendingVerification(ctx.session);
  return { kind: 'verification_info', email: found.email, user, isAuthenticating: flow?.userId === found.userId && flow.login !== null };
}

/** POST /auth/email/verify: verifies, and completes a pending login if there is one. */
export async function verifyEmail(deps: Deps, ctx: RequestContext, key: string): Promise<Outcome> {
  if (deps.config.account.emailVerificationByCode) {
    const check = await checkCode(deps, ctx, key, false);
    if (!check.ok) return check.outcome;
    return completeVerification(deps, ctx, check.flow.emailAddressId!, check.flow);
  }
  const found = await findUsableKey(deps.db, 'email_verification', hashSecret(key), ctx.now);
  const address = found?.emailAddressId ? await findEmailAddressById(deps.db, found.emailAddressId) : null;
  if (!found || !address || address.userId !== found.userId || address.email.toLowerCase() !== found.email.toLowerCase()) {
    return invalid({ code: 'invalid_or_expired_key', param: 'key' });
  }
  if (!(await spendKey(deps.db, found.id, ctx.now))) return invalid({ code: 'invalid_or_expired_key', param: 'key' });
  const flow = pendingVerification(ctx.session);
  return completeVerification(deps, ctx, address.id, flow?.userId === found.userId ? flow : null);
}

async function completeVerification(deps: Deps, ctx: RequestContext, emailAddressId: number, flow: VerifyEmailFlow | null): Promise<Outcome> {
  let changed: { from: string; to: string } | null = null;
  const outcome = await deps.db.transaction().execute(async (tx): Promise<Outcome> => {
    if (await markEmailVerified(tx, emailAddressId)) {
      const address = await findEmailAddressById(tx, emailAddressId);
      if (address) await recordEvent(deps, tx, ctx, 'email.verified', { userId: address.userId, detail: { email: address.email } });
    }
    changed = await settleVerifiedAddress(deps, tx, ctx, emailAddressId);
    // Read the user again: verifying may have changed its primary address.
    const current: AuthState = { session: ctx.session, user: ctx.user && (await findUserById(tx, ctx.user.id)) };
    if (!flow || !ctx.session) return { kind: 'auth', ...current };
    const user = flow.userId === null ? null : await findUserById(tx, flow.userId);
    // Deactivated since the login began: the address is verified, the login is not completed.
    if (flow.login && user && !user.isActive) {
      await updateSessionState(tx, ctx.session.id, { userId: null, methods: [], flow: null, flowAttempts: 0 }, flow);
      await recordFailure({ config: deps.config, db: tx }, ctx, 'login.failed', user.id, 'inactive');
      return invalid({ code: 'account_inactive' });
    }
    if (flow.login && user && deps.config.account.loginOnEmailConfirmation) {
      return (await passVerification(deps, ctx, tx, flow, user)) ?? conflict;
    }
    // Verified outside a login (or logins on confirmation are off): clear the flow only.
    const cleared = await updateSessionState(tx, ctx.session.id, { userId: ctx.session.userId, methods: ctx.session.methods, flow: null, flowAttempts: 0 }, flow);
    if (!cleared) return conflict;
    return { kind: 'auth', ...current, session: { ...ctx.session, flow: null } };
  });
  // The reference tells the old address, once the change is committed.
  const change = changed as { from: string; to: string } | null;
  if (change) await notify(deps, ctx, 'account/email/email_changed', change.from, { from_email: change.from, to_email: change.to });
  return outcome;
}

/** POST /auth/email/verify/resend: a new code (or link) for the pending flow. */
export async function resendVerification(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const session = ctx.session;
  const flow = pendingVerification(session);
  if (!session || !flow || !deps.config.account.emailVerificationSupportsResend) return conflict;
  const allowed = await deps.limiter.consume('confirm_email', { ip: ctx.ip, key: flow.email });
  if (!allowed.ok) return { kind: 'rate_limited', retryAfterSeconds: allowed.retryAfterSeconds };
  if (flow.userId === null) return { kind: 'ok' };
  const next = await sendVerification(deps, ctx, flow, true);
  // A new code keeps the attempt count: resending never buys more guesses.
  if (next !== flow && !(await replaceFlow(deps.db, session.id, next, flow))) return conflict;
  return { kind: 'ok' };
}
