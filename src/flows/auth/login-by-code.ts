import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod, CodeRecipient, LoginByCodeFlow, Session } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import { conflict, invalid, mailUnavailable, smsUnavailable, type Outcome } from '../outcome.js';
import { emailError, normalizeEmail } from '../validate.js';
import { findEmailAddress, markEmailVerified } from '../../store/email-addresses.js';
import { findUserById } from '../../store/users.js';
import { replaceFlow } from '../../store/sessions.js';
import { sendLoginCode, sendUnknownAccount } from '../../messaging/notices.js';
import { checkFlowCode } from '../code-attempt.js';
import { sendLoginCodeSms } from '../../messaging/sms/notices.js';
import { markPhoneVerified } from '../../store/phones.js';
import { allOrNothing } from '../../store/all-or-nothing.js';
import { dropFlow, nowSeconds, startPendingFlow } from '../session-ops.js';
import { advanceLogin, afterFirstFactor } from '../login/pipeline.js';
import { sendCode, type CodeDelivery } from '../pending-code.js';
import { addressOwner } from '../email/address-owner.js';
import { recordEvent, recordFailure } from '../../audit/recorder.js';

// Passwordless login: a code goes to the recipient and the session holds a
// pending login_by_code flow until it comes back. The flow names its
// recipient generically so that SMS can join email as a channel.

function undelivered(recipient: CodeRecipient): Outcome {
  return 'email' in recipient ? mailUnavailable : smsUnavailable;
}

/** The code's delivery to `recipient`; one with no account (`known` false) gets a notice by mail, nothing by SMS. */
function delivery(deps: Deps, language: string, recipient: CodeRecipient, known: boolean): CodeDelivery {
  const ttlSeconds = deps.config.account.loginByCode.timeout;
  const what = 'login code delivery';
  if ('email' in recipient) {
    return { known, ttlSeconds, what, send: (code) => sendLoginCode(deps, language, recipient.email, code), decoy: () => sendUnknownAccount(deps, language, recipient.email) };
  }
  // A number with no account is texted nothing: an SMS to any number anyone types would make this an SMS cannon.
  return { known, ttlSeconds, what, send: (code) => sendLoginCodeSms(deps, language, recipient.phone, code) };
}

/**
 * Starts the flow for a recipient, known (`user`) or not: both cost one
 * message and answer the same, so the answer reveals no account.
 */
export async function beginLoginByCode(deps: Deps, ctx: RequestContext, recipient: CodeRecipient, user: User | null): Promise<Outcome> {
  const issued = await sendCode(deps, ctx.now, delivery(deps, ctx.language, recipient, user !== null));
  if (!issued) return undelivered(recipient);
  const flow: LoginByCodeFlow = { id: 'login_by_code', userId: user?.id ?? null, recipient, ...issued, resends: 0 };
  return { kind: 'auth', ...(await startPendingFlow(deps, ctx, flow)) };
}

/** POST /auth/code/request {email}. */
export async function requestLoginCode(deps: Deps, ctx: RequestContext, input: { email?: string }): Promise<Outcome> {
  if (ctx.user) return conflict;
  if (input.email === undefined) return invalid({ code: 'required', param: 'email' });
  const email = normalizeEmail(input.email);
  const error = emailError(email);
  if (error) return invalid(error);
  // The reference answers this limit as a failed login, on the email field.
  const limit = await deps.limiter.consume('request_login_code', { ip: ctx.ip, key: email });
  if (!limit.ok) return invalid({ code: 'too_many_login_attempts', param: 'email' });

  const { address, user } = await addressOwner(deps, email);
  if (!user && !deps.config.account.preventEnumeration) return invalid({ code: 'unknown_email', param: 'email' });
  return beginLoginByCode(deps, ctx, { email: address?.email ?? email }, user);
}

function pendingLogin(session: Session | null): LoginByCodeFlow | null {
  return session?.flow?.id === 'login_by_code' ? session.flow : null;
}

/**
 * POST /auth/code/confirm. Wrong codes spend the attempt budget; the login
 * completes only if the session still holds this very flow, so a code logs
 * in once however many requests carry it.
 */
export async function confirmLoginCode(deps: Deps, ctx: RequestContext, code: string): Promise<Outcome> {
  const session = ctx.session;
  const flow = pendingLogin(session);
  if (!session || !flow) return conflict;
  const verdict = await checkFlowCode(deps, session, flow, code, deps.config.account.loginByCode.maxAttempts, ctx.now);
  if (verdict === 'gone') return conflict;
  if (verdict === 'wrong') {
    await recordFailure(deps, ctx, 'login.failed', flow.userId, 'invalid_code', { method: 'code' });
    return invalid({ code: 'incorrect_code', param: 'code' });
  }
  const user = await findUserById(deps.db, flow.userId!);
  if (!user?.isActive) {
    await dropFlow(deps, session);
    if (user) await recordFailure(deps, ctx, 'login.failed', user.id, 'inactive', { method: 'code' });
    return conflict;
  }
  // The login goes on, or nothing is written (another request passed the flow first, a stage could not begin).
  let notAdvanced: Outcome = conflict;
  const advanced = await allOrNothing(deps.db, async (tx) => {
    // The code reached the address or number, which proves it belongs to the
    // user: marked first, so that the login's stages see it verified (a number
    // proved here meets no phone stage).
    if ('email' in flow.recipient) {
      const address = await findEmailAddress(tx, flow.recipient.email);
      if (address?.userId === user.id && (await markEmailVerified(tx, address.id))) {
        await recordEvent(deps, tx, ctx, 'email.verified', { userId: user.id, detail: { email: address.email, method: 'code' } });
      }
    } else if ((await markPhoneVerified(tx, user.id, flow.recipient.phone)) === 'newly') {
      await recordEvent(deps, tx, ctx, 'phone.verified', { userId: user.id, detail: { phone: flow.recipient.phone, method: 'code' } });
    }
    const method: AuthMethod = { method: 'code', at: nowSeconds(ctx.now), ...flow.recipient };
    const outcome = await advanceLogin(deps, ctx, afterFirstFactor(user, method, { via: 'proof' }), { conn: tx, expectFlow: flow });
    if (outcome?.kind === 'auth') return outcome;
    notAdvanced = outcome ?? conflict;
    return null;
  });
  return advanced ?? notAdvanced;
}

/**
 * POST /auth/code/resend: a new code for the pending login, up to the
 * configured number of times. The attempt count is kept, so resending never
 * buys more guesses.
 */
export async function resendLoginCode(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const session = ctx.session;
  const flow = pendingLogin(session);
  const settings = deps.config.account.loginByCode;
  if (!session || !flow || flow.resends >= settings.maxResends) return conflict;
  if (flow.expiresAt <= ctx.now) {
    await dropFlow(deps, session);
    return conflict;
  }
  const key = 'email' in flow.recipient ? flow.recipient.email : flow.recipient.phone;
  const limit = await deps.limiter.consume('request_login_code', { ip: ctx.ip, key });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };

  // As in the reference, an unknown recipient gets no second notice.
  const issued = await sendCode(deps, ctx.now, { ...delivery(deps, ctx.language, flow.recipient, flow.userId !== null), decoy: undefined });
  if (!issued) return undelivered(flow.recipient);
  if (!(await replaceFlow(deps.db, session.id, { ...flow, ...issued, resends: flow.resends + 1 }, flow))) return conflict;
  return { kind: 'ok' };
}
