import type { Deps, RequestContext } from '../context.js';
import type { Session, VerifyPhoneFlow } from '../../domain/session.js';
import { conflict, invalid, type Outcome } from '../outcome.js';
import { findUserById } from '../../store/users.js';
import { findPhoneNumber, isUniqueViolation, markPhoneVerified, setVerifiedPhone } from '../../store/phones.js';
import { replaceFlow, updateSessionState } from '../../store/sessions.js';
import { checkFlowCode } from '../code-attempt.js';
import { passVerification } from '../login/pipeline.js';
import { recordEvent } from '../../audit/recorder.js';
import { sendPhoneCode } from './verification-sms.js';

// Checking the code of a verify_phone flow (sent by verification-sms.ts): a
// stage of signup and login (the login goes on once the number is verified),
// or a change of a logged-in account's number.

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
  return flow.login ? completeLogin(deps, ctx, session, flow, flow.userId!) : completeChange(deps, ctx, session, flow);
}

async function completeLogin(deps: Deps, ctx: RequestContext, session: Session, flow: VerifyPhoneFlow, userId: number): Promise<Outcome> {
  return deps.db.transaction().execute(async (tx) => {
    // The number may have changed since the code went out; then it proves nothing.
    const marked = await markPhoneVerified(tx, userId, flow.phone);
    if (marked === 'newly') await recordEvent(deps, tx, ctx, 'phone.verified', { userId, detail: { phone: flow.phone, method: 'code' } });
    const user = marked ? await findUserById(tx, userId) : null;
    if (!user?.isActive) {
      await updateSessionState(tx, session.id, { userId: session.userId, methods: session.methods, flow: null, flowAttempts: 0 }, flow);
      return conflict;
    }
    return (await passVerification(deps, ctx, tx, flow, user)) ?? conflict;
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
  const sent = await sendPhoneCode(deps, ctx, flow);
  if (!sent.ok) return sent.outcome;
  if (!(await replaceFlow(deps.db, session.id, sent.flow, flow))) return conflict;
  return { kind: 'ok' };
}
