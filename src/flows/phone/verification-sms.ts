import type { Deps, RequestContext } from '../context.js';
import type { LoginStart, VerifyPhoneFlow } from '../../domain/session.js';
import { smsUnavailable, type Outcome } from '../outcome.js';
import { sendPhoneTakenSms, sendPhoneVerificationSms } from '../../messaging/sms/notices.js';
import { sendCode } from '../pending-code.js';

// The SMS that verifies a phone number: sending it begins a verify_phone
// flow (a stage of signup and login, or a change of number); checking the
// code that comes back is phone-verification.ts.

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
export async function sendPhoneCode(deps: Deps, ctx: RequestContext, flow: VerifyPhoneFlow): Promise<Started> {
  const issued = await sendCode(deps, ctx.now, {
    known: flow.userId !== null,
    send: (code) => sendPhoneVerificationSms(deps, ctx.language, flow.phone, code),
    decoy: () => sendPhoneTakenSms(deps, ctx.language, flow.phone),
    ttlSeconds: deps.config.account.phone.timeout,
    what: 'phone verification SMS',
  });
  return issued ? { ok: true, flow: { ...flow, ...issued } } : { ok: false, outcome: smsUnavailable };
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
  return sendPhoneCode(deps, ctx, { id: 'verify_phone', ...target, codeHash: '', expiresAt: 0, login });
}
