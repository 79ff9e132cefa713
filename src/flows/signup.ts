import type { Deps, RequestContext } from './context.js';
import type { AuthMethod } from '../domain/session.js';
import { conflict, forbidden, invalid, type FieldError, type Outcome } from './outcome.js';
import { emailError, normalizeEmail, passwordErrors, usernameError } from './validate.js';
import { hashPassword } from '../security/passwords.js';
import { createUser, findUserById, usernameExists } from '../store/users.js';
import { findEmailAddress } from '../store/email-addresses.js';
import { sendAccountAlreadyExists } from '../messaging/notices.js';
import { beginVerification, decoyVerification } from './email-verification.js';
import { logIn, nowSeconds, startPendingFlow } from './session-ops.js';

export interface SignupInput {
  email?: string;
  username?: string;
  password?: string;
}

function checkFields(deps: Deps, input: SignupInput): FieldError[] {
  const fields = deps.config.account.signupFields;
  const errors: FieldError[] = [];
  for (const name of ['email', 'username', 'password'] as const) {
    const value = input[name];
    const wanted = name === 'password' ? (fields.password ?? { required: false }) : fields[name];
    if (wanted?.required && !value) errors.push({ code: 'required', param: name });
  }
  if (input.email && fields.email) {
    const error = emailError(input.email);
    if (error) errors.push(error);
  }
  if (input.username && fields.username) {
    const error = usernameError(deps.config, input.username);
    if (error) errors.push(error);
  }
  if (input.password && fields.password) {
    errors.push(...passwordErrors(deps.config, input.password, 'password', [input.email, input.username]));
  }
  return errors;
}

/**
 * POST /auth/signup. With enumeration prevention and mandatory verification,
 * a taken address answers exactly like a new one (pending verify_email) and
 * its owner is told by mail; nothing in the response or its timing differs.
 */
export async function signup(deps: Deps, ctx: RequestContext, raw: SignupInput): Promise<Outcome> {
  if (ctx.user) return conflict;
  const { account } = deps.config;
  if (!account.signupOpen) return forbidden;
  const limit = await deps.limiter.consume('signup', { ip: ctx.ip });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };

  const fields = account.signupFields;
  const input: SignupInput = {
    email: fields.email && raw.email ? normalizeEmail(raw.email) : undefined,
    username: fields.username && raw.username ? raw.username.trim() : undefined,
    password: fields.password ? raw.password : undefined,
  };
  const errors = checkFields(deps, input);
  if (input.username && (await usernameExists(deps.db, input.username))) errors.push({ code: 'username_taken', param: 'username' });
  if (errors.length > 0) return invalid(...errors);

  // Hash before looking the address up, so a taken address costs the same time.
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const hideTakenEmail = account.preventEnumeration && account.emailVerification === 'mandatory';
  if (input.email && (await findEmailAddress(deps.db, input.email))) {
    return hideTakenEmail ? answerForTakenEmail(deps, ctx, input.email) : invalid({ code: 'email_taken', param: 'email' });
  }

  const created = await deps.db.transaction().execute((tx) =>
    createUser(tx, { username: input.username ?? null, email: input.email ?? null, emailVerified: false, passwordHash, now: ctx.now }),
  );
  if (!created) {
    // Lost a race for the same address or username.
    if (input.email && hideTakenEmail) return answerForTakenEmail(deps, ctx, input.email);
    return invalid(input.email && (await findEmailAddress(deps.db, input.email)) ? { code: 'email_taken', param: 'email' } : { code: 'username_taken', param: 'username' });
  }
  const user = (await findUserById(deps.db, created.userId))!;
  const method: AuthMethod = input.email
    ? { method: 'password', at: nowSeconds(ctx.now), email: input.email }
    : { method: 'password', at: nowSeconds(ctx.now), username: input.username };

  if (input.email && created.emailAddressId !== null && account.emailVerification !== 'none') {
    const target = { userId: user.id, emailAddressId: created.emailAddressId, email: input.email };
    let flow;
    try {
      flow = await beginVerification(deps, ctx, target, account.emailVerification === 'mandatory' ? method : null);
    } catch (error) {
      // No mail, no account: the visitor can simply sign up again.
      await deps.db.deleteFrom('users').where('id', '=', user.id).execute();
      deps.log.error({ err: error }, 'verification mail failed; signup rolled back');
      return { kind: 'unavailable', errors: [{ code: 'mail_unavailable' }] };
    }
    if (account.emailVerification === 'mandatory') {
      return { kind: 'auth', ...(await startPendingFlow(deps, ctx, flow)) };
    }
    // Optional verification by code: logged in, with the code still pending.
    if (flow.codeHash !== null) return { kind: 'auth', ...(await logIn(deps, ctx, user, method, { pendingFlow: flow }))! };
  }
  return { kind: 'auth', ...(await logIn(deps, ctx, user, method))! };
}

async function answerForTakenEmail(deps: Deps, ctx: RequestContext, email: string): Promise<Outcome> {
  const allowed = await deps.limiter.consume('confirm_email', { ip: ctx.ip, key: email });
  if (allowed.ok) {
    await sendAccountAlreadyExists(deps, email).catch((error) => deps.log.error({ err: error }, 'account-exists notice failed'));
  }
  return { kind: 'auth', ...(await startPendingFlow(deps, ctx, decoyVerification(deps, ctx, email))) };
}
