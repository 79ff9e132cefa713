import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import type { LoginStart, VerifyEmailFlow } from '../../domain/session.js';
import { conflict, forbidden, invalid, mailUnavailable, type FieldError, type Outcome } from '../outcome.js';
import { emailError, normalizeEmail, passwordErrors, usernameError } from '../validate.js';
import { hashPassword } from '../../security/passwords.js';
import { createUser, deleteUser, findUserById, insertUser, usernameExists } from '../../store/users.js';
import { findPhoneNumber, insertPhone, isUniqueViolation } from '../../store/phones.js';
import { sendPhoneTakenSms } from '../../messaging/sms/notices.js';
import { parsePhone } from '../phone/phone-number.js';
import { beginPhoneVerification } from '../phone/verification-sms.js';
import { findEmailAddress } from '../../store/email-addresses.js';
import { sendAccountAlreadyExists, sendEmailVerification } from '../../messaging/notices.js';
import { decoyVerification, prepareVerification } from '../email/verification-message.js';
import { dropFlow, startPendingFlow } from '../session-ops.js';
import { advanceLogin, type Login } from '../login/pipeline.js';
import { deleteSession } from '../../store/sessions.js';
import { sendNotice } from '../notice.js';
import { recordEvent } from '../../audit/recorder.js';
import { checkProfile, requiredNames, type ProfileChange } from '../account/profile-fields.js';
import type { AuditFailureReason } from '../../domain/audit-event.js';
import { requestedLanguage } from '../language.js';

/** POST /auth/signup's body: the fields of ACCOUNT_SIGNUP_FIELDS (the phone number E.164 once checked). */
export const SignupInput = Type.Object({
  email: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String({ description: 'When ACCOUNT_SIGNUP_FIELDS has phone; E.164.' })),
  password: Type.Optional(Type.String()),
  first_name: Type.Optional(Type.String({ description: 'When ACCOUNT_SIGNUP_FIELDS has first_name; at most 150 characters.' })),
  last_name: Type.Optional(Type.String({ description: 'When ACCOUNT_SIGNUP_FIELDS has last_name; at most 150 characters.' })),
});
export type SignupInput = Static<typeof SignupInput>;

function checkFields(deps: Deps, input: SignupInput, passkey: boolean): FieldError[] {
  const fields = deps.config.account.signupFields;
  const errors: FieldError[] = [];
  for (const name of ['email', 'username', 'phone', 'password'] as const) {
    const value = input[name];
    const wanted = name === 'password' ? (fields.password && !passkey ? fields.password : { required: false }) : fields[name];
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
    errors.push(...passwordErrors(deps.config, input.password, 'password', [input.email, input.username, input.phone]));
  }
  return errors;
}

/**
 * POST /auth/signup. With enumeration prevention and mandatory verification,
 * a taken address answers exactly like a new one (pending verify_email) and
 * its owner is told by mail; nothing in the response or its timing differs.
 * `passkey` (POST /auth/webauthn/signup): no password; the login ends at the
 * stage that registers a passkey.
 */
export async function signup(deps: Deps, ctx: RequestContext, raw: SignupInput, opts: { passkey?: boolean } = {}): Promise<Outcome> {
  const passkey = opts.passkey === true;
  if (ctx.user) return conflict;
  const { account } = deps.config;
  if (!account.signupOpen) return forbidden;
  const limit = await deps.limiter.consume('signup', { ip: ctx.ip });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };

  const fields = account.signupFields;
  const phone = fields.phone && raw.phone ? parsePhone(raw.phone) : undefined;
  const input: SignupInput = {
    email: fields.email && raw.email ? normalizeEmail(raw.email) : undefined,
    username: fields.username && raw.username ? raw.username.trim() : undefined,
    // A malformed number stays as typed, so that it is reported invalid rather than missing.
    phone: phone === undefined ? undefined : 'phone' in phone ? phone.phone : raw.phone,
    password: fields.password && !passkey ? raw.password : undefined,
  };
  const errors = checkFields(deps, input, passkey);
  if (phone && 'error' in phone) errors.push(phone.error);
  // The names ACCOUNT_SIGNUP_FIELDS lists and the ACCOUNT_PROFILE_SCHEMA fields, top-level keys of the body as a signup form's fields are.
  const named = checkProfile(deps.config, raw as Record<string, unknown>, null, { signup: true, requiredNames: requiredNames(deps.config) });
  if (!named.ok) errors.push(...named.errors);
  const profile: ProfileChange = named.ok ? named.change : {};
  if (input.username && (await usernameExists(deps.db, input.username))) errors.push({ code: 'username_taken', param: 'username' });
  if (errors.length > 0) return invalid(...errors);

  // Hash before looking the address up, so a taken address costs the same time.
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const hideTakenEmail = account.preventEnumeration && account.emailVerification === 'mandatory';
  // A signup proves no factor, so it records none (as in the reference).
  const start: LoginStart = { signup: passkey ? 'passkey' : 'password' };
  if (hideTakenEmail && input.email && !input.phone) return signupPendingVerification(deps, ctx, { ...input, email: input.email }, profile, passwordHash, start);
  if (input.email && (await findEmailAddress(deps.db, input.email))) {
    return hideTakenEmail ? answerForTakenEmail(deps, ctx, input.email) : invalid({ code: 'email_taken', param: 'email' });
  }

  if (input.phone && (await findPhoneNumber(deps.db, input.phone))) return answerForTakenPhone(deps, ctx, input);

  let created;
  try {
    created = await deps.db.transaction().execute(async (tx) => {
      const made = await createUser(tx, { username: input.username ?? null, email: input.email ?? null, emailVerified: false, passwordHash, now: ctx.now, language: requestedLanguage(ctx), ...profile });
      if (made && input.phone) await insertPhone(tx, { userId: made.userId, phone: input.phone, verified: false, now: ctx.now });
      if (made) await recordEvent(deps, tx, ctx, 'signup', { userId: made.userId, detail: signupDetail(input, passkey) });
      return made;
    });
  } catch (error) {
    // Lost a race for the number: the unique index decided, and nothing was written.
    if (input.phone && isUniqueViolation(error) && (await findPhoneNumber(deps.db, input.phone))) return answerForTakenPhone(deps, ctx, input);
    throw error;
  }
  if (!created) {
    // Lost a race for the same address or username.
    if (input.email && hideTakenEmail) return answerForTakenEmail(deps, ctx, input.email);
    return invalid(input.email && (await findEmailAddress(deps.db, input.email)) ? { code: 'email_taken', param: 'email' } : { code: 'username_taken', param: 'username' });
  }
  const user = (await findUserById(deps.db, created.userId))!;

  const address = input.email && created.emailAddressId !== null ? { emailAddressId: created.emailAddressId, email: input.email } : null;
  const login: Login = { user, methods: [], signup: passkey ? 'passkey' : 'password', entry: { via: 'signup', address, phone: input.phone !== undefined } };
  const outcome = (await advanceLogin(deps, ctx, login))!;
  // No mail or SMS (or rate-limited), no account: signing up again works.
  if (outcome.kind === 'unavailable' || outcome.kind === 'rate_limited') await undoSignup(deps, ctx, user.id, undoReason(outcome));
  return outcome;
}

/** Why a signup whose login could not go on is taken back. */
export function undoReason(outcome: Outcome): AuditFailureReason {
  if (outcome.kind !== 'unavailable') return 'rate_limited';
  return outcome.errors[0]?.code === 'mail_unavailable' ? 'mail_unavailable' : 'sms_unavailable';
}

function signupDetail(input: SignupInput, passkey: boolean) {
  return { method: passkey ? ('passkey' as const) : ('password' as const), ...(input.email ? { email: input.email } : {}), ...(input.phone ? { phone: input.phone } : {}) };
}

/**
 * Takes back a signup whose next stage could not start (no mail, no SMS):
 * the account goes, and the trail says so next to its signup event.
 */
export async function undoSignup(deps: Deps, ctx: RequestContext, userId: number, reason: AuditFailureReason): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    if (await deleteUser(tx, userId)) await recordEvent(deps, tx, ctx, 'account.deleted', { userId, detail: { reason } });
  });
}

/**
 * Signup under mandatory verification with enumeration prevention: a new
 * address and a taken one go one way, doing the same work, so neither the
 * answer nor its time tells them apart. One transaction tries to create the
 * account (the address's unique index refuses a taken one) and stores the
 * pending verification in the session (for a taken address a stand-in no
 * key or code completes); after it commits, one mail goes out: the
 * verification, or an "account exists" notice to the owner.
 */
async function signupPendingVerification(deps: Deps, ctx: RequestContext, input: SignupInput & { email: string }, profile: ProfileChange, passwordHash: string | null, start: LoginStart): Promise<Outcome> {
  const { email } = input;
  const mailing = await deps.limiter.consume('confirm_email', { ip: ctx.ip, key: email });
  const started = await deps.db.transaction().execute(async (tx) => {
    // Inserted without a look first: a taken address runs the same statements and leaves nothing.
    const created = await insertUser(tx, { username: input.username ?? null, email, emailVerified: false, passwordHash, now: ctx.now, language: requestedLanguage(ctx), ...profile });
    if (!created) return { created, secret: null, state: await startPendingFlow(deps, ctx, decoyVerification(deps, ctx, email), tx) };
    await recordEvent(deps, tx, ctx, 'signup', { userId: created.userId, detail: signupDetail(input, 'signup' in start && start.signup === 'passkey') });
    const target = { userId: created.userId, emailAddressId: created.emailAddressId!, email };
    const flow: VerifyEmailFlow = { id: 'verify_email', ...target, codeHash: null, codeExpiresAt: null, login: start };
    const prepared = await prepareVerification(deps, ctx, flow, mailing.ok, tx);
    return { created, secret: prepared.secret, state: await startPendingFlow(deps, ctx, prepared.flow, tx) };
  });
  const { created, secret, state } = started;
  if (!created) {
    if (mailing.ok) await sendNotice(deps, sendAccountAlreadyExists(deps, ctx.language, email), 'account-exists');
  } else if (secret) {
    try {
      await sendEmailVerification(deps, ctx.language, email, secret, true);
    } catch (error) {
      // No mail, no account and no pending flow: the visitor can simply sign up again.
      await undoSignup(deps, ctx, created.userId, 'mail_unavailable');
      if (state.newSessionKey) await deleteSession(deps.db, state.session!.id);
      else await dropFlow(deps, state.session!);
      deps.log.error({ err: error }, 'verification mail failed; signup rolled back');
      return mailUnavailable;
    }
  }
  return { kind: 'auth', ...state };
}

/**
 * A number that already has an account. With enumeration prevention the
 * answer is the one a new signup would get (the stage it would stop at,
 * pending), no account is made, and the number's owner gets a notice.
 */
async function answerForTakenPhone(deps: Deps, ctx: RequestContext, input: SignupInput): Promise<Outcome> {
  const { account } = deps.config;
  const emailFirst = input.email !== undefined && account.emailVerification === 'mandatory';
  if (!account.preventEnumeration || !(emailFirst || account.phone.verificationEnabled)) return invalid({ code: 'phone_taken', param: 'phone' });
  if (input.email && emailFirst) {
    const allowed = await deps.limiter.consume('verify_phone', { ip: ctx.ip, key: input.phone });
    if (allowed.ok) await sendNotice(deps, sendPhoneTakenSms(deps, ctx.language, input.phone!), 'phone-taken');
    return { kind: 'auth', ...(await startPendingFlow(deps, ctx, decoyVerification(deps, ctx, input.email))) };
  }
  const started = await beginPhoneVerification(deps, ctx, { userId: null, phone: input.phone! }, null);
  if (!started.ok) return started.outcome;
  return { kind: 'auth', ...(await startPendingFlow(deps, ctx, started.flow)) };
}

/** Enumeration prevention for a taken address: the answer a new signup would get (pending verify_email), and a notice to the owner. */
export async function answerForTakenEmail(deps: Deps, ctx: RequestContext, email: string): Promise<Outcome> {
  const allowed = await deps.limiter.consume('confirm_email', { ip: ctx.ip, key: email });
  if (allowed.ok) {
    await sendNotice(deps, sendAccountAlreadyExists(deps, ctx.language, email), 'account-exists');
  }
  return { kind: 'auth', ...(await startPendingFlow(deps, ctx, decoyVerification(deps, ctx, email))) };
}
