import type { Deps, RequestContext } from '../context.js';
import { conflict, invalid, notAuthenticated, type Outcome } from '../outcome.js';
import { parsePhone } from './phone-number.js';
import { findPhoneNumber, findPhoneOfUser } from '../../store/phones.js';
import { updateSessionState } from '../../store/sessions.js';
import { beginPhoneVerification } from './verification-sms.js';
import { requireRecentAuthentication } from '../auth/reauthentication.js';

/** GET /account/phone: the account's number as a list of at most one record. */
export async function listPhones(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  if (!ctx.user) return notAuthenticated;
  const number = await findPhoneOfUser(deps.db, ctx.user.id);
  return { kind: 'phone_numbers', phones: number ? [{ phone: number.phone, verified: number.verified }] : [], accepted: false };
}

/**
 * POST /account/phone: texts a code to the new number; the number replaces the
 * account's own once POST /auth/phone/verify confirms it. A number that
 * belongs to another account gets the same 202, but its owner receives a
 * notice instead of a code, and no code can complete the change.
 */
export async function changePhone(deps: Deps, ctx: RequestContext, raw: string): Promise<Outcome> {
  const { session, user } = ctx;
  // The reference answers 409 here, not 401: without an authenticated user there is no change to start.
  if (!session || !user) return conflict;
  const limit = await deps.limiter.consume('change_phone', { ip: ctx.ip, userId: user.id });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };
  const parsed = parsePhone(raw);
  if ('error' in parsed) return invalid(parsed.error);
  const { phone } = parsed;
  // A number is a way to log in: with ACCOUNT_REAUTHENTICATION_REQUIRED, changing it needs a recent proof of identity.
  const stale = deps.config.account.reauthenticationRequired ? await requireRecentAuthentication(deps, session, user, ctx.now) : null;
  if (stale) return stale;

  const current = await findPhoneOfUser(deps.db, user.id);
  // An unverified current number may be sent a code again: that is how it gets verified.
  if (current?.phone === phone && current.verified) return invalid({ code: 'same_as_current', param: 'phone' });
  const owner = await findPhoneNumber(deps.db, phone);
  const taken = owner !== null && owner.userId !== user.id;
  if (taken && !deps.config.account.preventEnumeration) return invalid({ code: 'phone_taken', param: 'phone' });

  const started = await beginPhoneVerification(deps, ctx, { userId: taken ? null : user.id, phone }, null);
  if (!started.ok) return started.outcome;
  await updateSessionState(deps.db, session.id, { userId: session.userId, methods: session.methods, flow: started.flow, flowAttempts: 0 });
  return { kind: 'phone_numbers', phones: [{ phone, verified: false }], accepted: true };
}
