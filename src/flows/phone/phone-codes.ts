import type { Deps, RequestContext } from '../context.js';
import type { PasswordResetByCodeFlow } from '../../domain/session.js';
import { smsUnavailable, conflict, invalid, type Outcome } from '../outcome.js';
import { parsePhone } from './phone-number.js';
import { sendCode } from '../pending-code.js';
import { findUserByPhone } from '../../store/phones.js';
import { sendPasswordResetCodeSms } from '../../messaging/sms/notices.js';
import { beginLoginByCode } from '../auth/login-by-code.js';
import { holdFlow } from '../password/password-reset.js';
import { phoneEnabled } from './verification-sms.js';

// Login by code and password reset by code through SMS, for the accounts a
// number identifies: the same flows as by email, with the phone as channel.
// A number without an account answers the same but is texted nothing: an
// SMS to any number anyone types would make these endpoints an SMS cannon.

/** POST /auth/code/request {phone} (phone among ACCOUNT_LOGIN_METHODS). */
export async function requestLoginCodeByPhone(deps: Deps, ctx: RequestContext, raw: string): Promise<Outcome> {
  if (ctx.user) return conflict;
  // As in the reference, the phone field exists only when numbers are a login method.
  if (!deps.config.account.loginMethods.includes('phone')) return invalid({ code: 'required', param: 'email' });
  const parsed = parsePhone(raw);
  if ('error' in parsed) return invalid(parsed.error);
  const { phone } = parsed;
  // The reference answers this limit as a failed login, on the identifying field.
  const limit = await deps.limiter.consume('request_login_code', { ip: ctx.ip, key: phone });
  if (!limit.ok) return invalid({ code: 'too_many_login_attempts', param: 'phone' });
  const owner = await findUserByPhone(deps.db, phone);
  const user = owner?.isActive ? owner : null;
  if (!user && !deps.config.account.preventEnumeration) return invalid({ code: 'unknown_phone', param: 'phone' });
  return beginLoginByCode(deps, ctx, { phone }, user);
}

/** Whether POST /auth/password/request takes {phone}: reset by code, and numbers in use. */
export function passwordResetByPhoneEnabled(deps: Deps): boolean {
  return deps.config.account.passwordReset.byCode && phoneEnabled(deps);
}

/** POST /auth/password/request {phone}: a reset code by SMS, in the password_reset_by_code flow. */
export async function requestPasswordResetByPhone(deps: Deps, ctx: RequestContext, raw: string): Promise<Outcome> {
  const { account } = deps.config;
  if (!passwordResetByPhoneEnabled(deps)) return invalid({ code: 'required', param: 'email' });
  const parsed = parsePhone(raw);
  if ('error' in parsed) return invalid(parsed.error);
  const { phone } = parsed;
  const limit = await deps.limiter.consume('reset_password', { ip: ctx.ip, key: phone });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };
  const owner = await findUserByPhone(deps.db, phone);
  const user = owner?.isActive ? owner : null;
  if (!user && !account.preventEnumeration) return invalid({ code: 'unknown_phone', param: 'phone' });

  // No account, no SMS: the flow only looks the same.
  const issued = await sendCode(deps, ctx.now, {
    known: user !== null,
    send: (code) => sendPasswordResetCodeSms(deps, ctx.language, phone, code),
    ttlSeconds: account.passwordReset.byCodeTimeout,
    what: 'password reset SMS',
  });
  if (!issued) return smsUnavailable;
  const flow: PasswordResetByCodeFlow = { id: 'password_reset_by_code', userId: user?.id ?? null, email: null, phone, ...issued };
  return { kind: 'auth', ...(await holdFlow(deps, ctx, flow)) };
}
