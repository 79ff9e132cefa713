import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod } from '../../domain/session.js';
import { conflict, invalid, type Outcome } from '../outcome.js';
import { emailError, normalizeEmail } from '../validate.js';
import { hashPassword, verifyPassword } from '../../security/passwords.js';
import { findUserByEmail, findUserByUsername, setPasswordHash } from '../../store/users.js';
import { nowSeconds } from '../session-ops.js';
import { advanceLogin, afterFirstFactor } from '../login/pipeline.js';
import { findUserByPhone } from '../../store/phones.js';
import { parsePhone } from '../phone/phone-number.js';
import { recordFailure } from '../../audit/recorder.js';

/** POST /auth/login's body: one identifier per ACCOUNT_LOGIN_METHODS, and the password. */
export const LoginInput = Type.Object({
  email: Type.Optional(Type.String({ description: 'When email login is enabled.' })),
  username: Type.Optional(Type.String({ description: 'When username login is enabled.' })),
  phone: Type.Optional(Type.String({ description: 'When phone login is enabled; E.164.' })),
  password: Type.String({ minLength: 1 }),
});
export type LoginInput = Static<typeof LoginInput>;

type Identifier = { by: 'email'; value: string } | { by: 'username'; value: string } | { by: 'phone'; value: string };

function identify(deps: Deps, input: LoginInput): Identifier | Outcome {
  const methods = deps.config.account.loginMethods;
  if (methods.includes('email') && input.email !== undefined) {
    const email = normalizeEmail(input.email);
    const error = emailError(email);
    return error ? invalid(error) : { by: 'email', value: email };
  }
  if (methods.includes('username') && input.username !== undefined) return { by: 'username', value: input.username.trim() };
  if (methods.includes('phone') && input.phone !== undefined) {
    const parsed = parsePhone(input.phone);
    return 'error' in parsed ? invalid(parsed.error) : { by: 'phone', value: parsed.phone };
  }
  return invalid({ code: 'required', param: methods[0] });
}

/**
 * POST /auth/login. The credential check runs under the login_failed limit
 * (per IP and per account key; see RateLimiter.guarded): parallel guesses
 * cannot overshoot it, and only a check that ran and failed counts. Unknown
 * accounts cost a full hash like wrong passwords and get the same error.
 */
export async function login(deps: Deps, ctx: RequestContext, input: LoginInput): Promise<Outcome> {
  if (ctx.user) return conflict;
  const perIp = await deps.limiter.consume('login', { ip: ctx.ip });
  // Refused before any account is named: counted in the metrics, not written
  // to the trail, so a flood over this limit costs no database write.
  if (!perIp.ok) return { kind: 'rate_limited', retryAfterSeconds: perIp.retryAfterSeconds };
  const id = identify(deps, input);
  if ('kind' in id) return id;

  const attempt = await deps.limiter.guarded('login_failed', { ip: ctx.ip, key: id.value }, async () => {
    const user =
      id.by === 'email' ? await findUserByEmail(deps.db, id.value) : id.by === 'phone' ? await findUserByPhone(deps.db, id.value) : await findUserByUsername(deps.db, id.value);
    const verdict = await verifyPassword(input.password, user?.passwordHash ?? null);
    return { succeeded: user !== null && verdict.ok, value: { user, verdict } };
  });
  if (!attempt.ok) {
    await recordFailure(deps, ctx, 'login.failed', null, 'rate_limited', { method: 'password', identifier: id.value });
    return invalid({ code: 'too_many_login_attempts' });
  }
  const { user, verdict } = attempt.value;
  if (!user || !verdict.ok) {
    // Written for an unknown account as for a known one, so the two still cost the same.
    await recordFailure(deps, ctx, 'login.failed', user?.id ?? null, user ? 'invalid_password' : 'unknown_user', { method: 'password', identifier: id.value });
    return invalid({ code: `${id.by}_password_mismatch`, param: 'password' });
  }
  // Only failures count, as in the reference: an office behind one NAT logs in all day.
  if (!user.isActive) {
    await recordFailure(deps, ctx, 'login.failed', user.id, 'inactive', { method: 'password', identifier: id.value });
    return invalid({ code: 'account_inactive' });
  }
  if (verdict.needsRehash) await setPasswordHash(deps.db, user.id, await hashPassword(input.password), null);

  const at = nowSeconds(ctx.now);
  const method: AuthMethod =
    id.by === 'email'
      ? { method: 'password', at, email: id.value }
      : id.by === 'phone'
        ? { method: 'password', at, phone: id.value }
        : { method: 'password', at, username: user.username ?? id.value };
  return (await advanceLogin(deps, ctx, afterFirstFactor(user, method, { via: 'credentials', email: id.by === 'email' ? id.value : user.email })))!;
}
