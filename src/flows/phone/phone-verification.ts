import type { Deps, RequestContext } from '../context.js';
import type { LoginStart, Session, VerifyPhoneFlow } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import { conflict, invalid, smsUnavailable, type Outcome } from '../outcome.js';
import { hashSecret, randomCode, randomKey } from '../../security/secrets.js';
import { findUserById } from '../../store/users.js';
import { findPhoneNumber, findPhoneOfUser, isUniqueViolation, markPhoneVerified, setVerifiedPhone } from '../../store/phones.js';
import { replaceFlow, updateSessionState } from '../../store/sessions.js';
import { checkFlowCode } from '../code-attempt.js';
import { sendPhoneTakenSms, sendPhoneVerificationSms } from '../../messaging/sms/notices.js';
import { logIn, startPendingFlow } from '../session-ops.js';
import { recordEvent } from '../audit.js';

// Phone numbers are verified by a code sent by SMS, in the session's pending
// verify_phone flow: as a stage of signup and login (the login completes once
// the number is verified), or to change a logged-in account's number.

export type Started = { ok: true; flow: VerifyPhoneFlow } | { ok: false; outcome: Outcome };

/** Whether phone numbers are in use at all: collected at signup or used to log in. */
export function phoneEnabled(deps: Deps): boolean {
  return deps.config.account.signupFields.phone !== undefined || deps.config.account.loginMethods.includes('phone');
}

/**
 * Sends a new code for `flow` and returns the flow holding its hash. A decoy
 * (no user: the number belongs to another account) gets no code; its owner is
 * told by a notice instead. A failing sender leaves nothing changed and
 * answers sms_unavailable, decoy or not, so the two look alike.
 */
async function sendCode(deps: Deps, ctx: RequestContext, flow: VerifyPhoneFlow): Promise<Started> {
  const code = randomCode();
  try {
    if (flow.userId !== null) await sendPhoneVerificationSms(deps, flow.phone, code);
    else await sendPhoneTakenSms(deps, flow.phone);
  } catch (error) {
    deps.log.error({ err: error }, 'phone verification SMS failed');
    return { ok: false, outcome: smsUnavailable };
  }
  // A decoy's hash is of a secret nobody has, so no code matches it.
  const codeHash = hashSecret(flow.userId !== null ? code : randomKey());
  return { ok: true, flow: { ...flow, codeHash, expiresAt: ctx.now + deps.config.account.phone.timeout * 1000 } };
}

/**
 * Starts verifying `phone` for `userId` (null: a decoy for a number that is
 * taken), spending the verify_phone limit first. `login` is the login to
 * complete once verified; null for a change of number.
 */
export async function beginPhoneVerification(
  deps: Deps,
  ctx: RequestContext,
  target: { userId: number | null; phone: string },
  login: LoginStart | null,
): Promise<Started> {
  const limit = await deps.limiter.consume('verify_phone', { ip: ctx.ip, key: target.phone });
  if (!limit.ok) return { ok: false, outcome: { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds } };
  return sendCode(deps, ctx, { id: 'verify_phone', ...target, codeHash: '', expiresAt: 0, login });
}

/**
 * The verify_phone stage of a login: when phone numbers are collected at
 * signup and the account's number is unverified, the login waits for the code.
 * Null when the stage does not apply.
 */
export async function phoneStage(deps: Deps, ctx: RequestContext, user: User, method: LoginStart): Promise<Outcome | null> {
  const { account } = deps.config;
  if (!account.phone.verificationEnabled || !account.signupFields.phone) return null;
  const number = await findPhoneOfUser(deps.db, user.id);
  if (!number || number.verified) return null;
  const started = await beginPhoneVerification(deps, ctx, { userId: user.id, phone: number.phone }, method);
  if (!started.ok) return started.outcome;
  return { kind: 'auth', ...(await startPendingFlow(deps, ctx, started.flow)) };
}

function pendingFlow(session: Session | null): VerifyPhoneFlow | null {
  return session?.flow?.id === 'verify_phone' ? session.flow : null;
}

/**
 * POST /auth/phone/verify. The code is checked like every other code
 * (checkFlowCode): wrong codes spend the attempt budget, and an expired or
 * spent flow answers 409.
 */
export async function verifyPhone(deps: Deps, ctx: RequestContext, code: string): Promise<Outcome> {
  const session = ctx.session;
  const flow = pendingFlow(session);
  if (!session || !flow) return conflict;
  const verdict = await checkFlowCode(deps, session, flow, code, deps.config.account.phone.maxAttempts, ctx.now);
  if (verdict === 'gone') return conflict;
  if (verdict === 'wrong') return invalid({ code: 'incorrect_code', param: 'code' });
  return flow.login ? completeLogin(deps, ctx, session, flow, flow.userId!, flow.login) : completeChange(deps, ctx, session, flow);
}

async function completeLogin(deps: Deps, ctx: RequestContext, session: Session, flow: VerifyPhoneFlow, userId: number, method: LoginStart): Promise<Outcome> {
  return deps.db.transaction().execute(async (tx) => {
    // The number may have changed since the code went out; then it proves nothing.
    const marked = await markPhoneVerified(tx, userId, flow.phone);
    if (marked === 'newly') await recordEvent(deps, tx, ctx, 'phone.verified', { userId, detail: { phone: flow.phone, method: 'code' } });
    const user = marked ? await findUserById(tx, userId) : null;
    if (!user?.isActive) {
      await updateSessionState(tx, session.id, { userId: session.userId, methods: session.methods, flow: null, flowAttempts: 0 }, flow);
      return conflict;
    }
    const state = await logIn(deps, ctx, user, method, { conn: tx, expectFlow: flow });
    return state ? { kind: 'auth', ...state } : conflict;
  });
}

async function completeChange(deps: Deps, ctx: RequestContext, session: Session, flow: VerifyPhoneFlow): Promise<Outcome> {
  const user = ctx.user;
  if (!user || user.id !== flow.userId) return conflict;
  try {
    return await deps.db.transaction().execute(async (tx) => {
      // Clearing the flow first, conditionally, makes the code single-use under parallel requests.
      const cleared = await updateSessionState(tx, session.id, { userId: session.userId, methods: session.methods, flow: null, flowAttempts: 0 }, flow);
      if (!cleared) return conflict;
      // Claimed by another account after the code went out: the change cannot happen.
      const owner = await findPhoneNumber(tx, flow.phone);
      if (owner && owner.userId !== user.id) return conflict;
      await setVerifiedPhone(tx, user.id, flow.phone, ctx.now);
      await recordEvent(deps, tx, ctx, 'phone.changed', { userId: user.id, detail: { phone: flow.phone } });
      return { kind: 'auth', session: { ...session, flow: null, flowAttempts: 0 }, user };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return conflict;
    throw error;
  }
}

/** POST /auth/phone/verify/resend: a new code; the attempts already spent stay spent. */
export async function resendPhoneVerification(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const session = ctx.session;
  const flow = pendingFlow(session);
  if (!session || !flow || !deps.config.account.phone.supportsResend) return conflict;
  const limit = await deps.limiter.consume('verify_phone', { ip: ctx.ip, key: flow.phone });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };
  // As in the reference, a decoy's owner is not texted again on resend.
  if (flow.userId === null) return { kind: 'ok' };
  const sent = await sendCode(deps, ctx, flow);
  if (!sent.ok) return sent.outcome;
  if (!(await replaceFlow(deps.db, session.id, sent.flow, flow))) return conflict;
  return { kind: 'ok' };
}
