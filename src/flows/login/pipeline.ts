import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod, LoginStageFlow, LoginStart, PendingFlow, Session, VerifyEmailFlow, VerifyPhoneFlow } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import type { Conn } from '../../store/db.js';
import { mailUnavailable, stageNotPending, type Outcome } from '../outcome.js';
import { findEmailAddress, listUserEmailAddresses } from '../../store/email-addresses.js';
import { findPhoneOfUser } from '../../store/phones.js';
import { findUserById } from '../../store/users.js';
import { authenticatorTypes } from '../../store/mfa-authenticators.js';
import { beginVerification, type VerificationTarget } from '../email/verification-message.js';
import { beginPhoneVerification } from '../phone/verification-sms.js';
import { isTrustedBrowser } from '../mfa/trust.js';
import { dropFlow } from '../session-ops.js';
import { finishLogin, holdAt } from './session-write.js';

// The login process. After its first factor (a password, a code, a passkey,
// a provider's account, a signup, a reset) a login passes the stages below in
// order, each only where it applies; the session waits at the first stage that
// applies, as that stage's pending flow, and becomes authenticated only when
// none is left. Every first factor ends in advanceLogin; the request that
// passes a stage goes on with passStage or passVerification. A new stage, or a
// new place that resumes a login, is added here.

/** How a login began, which decides the verification stages it meets. */
export type Entry =
  /** A password or passkey: ACCOUNT_EMAIL_VERIFICATION "mandatory" holds an unverified address it named; the account's phone number. */
  | { via: 'credentials'; email: string | null }
  /** A provider's account: SOCIALACCOUNT_EMAIL_VERIFICATION, the account's phone number. */
  | { via: 'social'; signup: boolean }
  /** A signup: its new address (ACCOUNT_EMAIL_VERIFICATION) and phone number. */
  | { via: 'signup'; address: Omit<VerificationTarget, 'userId'> | null; phone: boolean }
  /**
   * A code, a reset, or a verification stage just passed: it proved the
   * recipient it reached (already marked verified), so only the stages after
   * it remain; the account's phone number, unless it was that recipient, still
   * meets its stage, as in the reference.
   */
  | { via: 'proof' };

export interface Login {
  user: User;
  /** The factors proved so far (none for a signup), recorded on the session when the login completes. */
  methods: AuthMethod[];
  entry: Entry;
  /** A signup's login; a passkey signup then waits for its passkey. */
  signup?: 'password' | 'passkey';
  /** The stage just passed: the login goes on from the one after it. */
  passed?: StageId;
  /** Milliseconds: when the MFA stages of this login time out (ACCOUNT_LOGIN_TIMEOUT after the first factor). */
  deadline?: number;
}

/** What a stage does with a login. */
type Begun =
  /** The login waits here; `newKey` gives the waiting session a new key. */
  | { hold: PendingFlow; newKey?: boolean }
  /** The session already waits here with a live code: it stays as it is. */
  | { stay: true }
  /** Logged in, with this code still pending (optional verification by code). */
  | { alongside: VerifyEmailFlow }
  /** The stage could not begin (no mail, no SMS, rate-limited): nothing was written. */
  | { failed: Outcome }
  /** Does not apply to this login. */
  | null;

interface Stage {
  id: StageId;
  begin(deps: Deps, ctx: RequestContext, conn: Conn, login: Login): Promise<Begun>;
}

export type StageId = 'verify_email' | 'verify_phone' | LoginStageFlow['id'];

/** The flow's LoginStart: what a verification flow remembers of the login it holds. */
function startOf(login: Login): LoginStart {
  return login.signup ? { signup: login.signup } : login.methods[0]!;
}

/** A passkey login is both factors at once. */
function passwordless(method: AuthMethod): boolean {
  return method.method === 'mfa' && method.type === 'webauthn' && method.passwordless === true;
}

async function mailed(deps: Deps, ctx: RequestContext, target: VerificationTarget, login: LoginStart | null): Promise<VerifyEmailFlow | null> {
  try {
    return await beginVerification(deps, ctx, target, login);
  } catch (error) {
    deps.log.error({ err: error }, 'verification mail failed');
    return null;
  }
}

async function verifyEmail(deps: Deps, ctx: RequestContext, conn: Conn, login: Login): Promise<Begun> {
  const { entry, user } = login;
  if (entry.via === 'credentials') {
    if (deps.config.account.emailVerification !== 'mandatory' || !entry.email) return null;
    const address = await findEmailAddress(conn, entry.email);
    if (!address || address.userId !== user.id || address.verified) return null;
    // Logging in again while this session still waits for a live code keeps
    // that code (and its spent attempts): a fresh one could not be mailed
    // within the cooldown, and a reset count would buy more guesses.
    const pending = ctx.session?.flow;
    if (pending?.id === 'verify_email' && pending.userId === user.id && pending.codeHash !== null && (pending.codeExpiresAt ?? 0) > ctx.now) return { stay: true };
    const flow = await beginVerification(deps, ctx, { userId: user.id, emailAddressId: address.id, email: address.email }, startOf(login));
    return { hold: flow };
  }
  let target: VerificationTarget;
  let mandatory: boolean;
  if (entry.via === 'social') {
    const mode = deps.config.social.emailVerification;
    if (mode === 'none' || (mode === 'optional' && !entry.signup)) return null;
    const addresses = await listUserEmailAddresses(conn, user.id);
    const primary = addresses.find((a) => a.primary) ?? addresses[0];
    if (!primary || addresses.some((a) => a.verified)) return null;
    target = { userId: user.id, emailAddressId: primary.id, email: primary.email };
    mandatory = mode === 'mandatory';
  } else if (entry.via === 'signup') {
    const mode = deps.config.account.emailVerification;
    if (!entry.address || mode === 'none') return null;
    target = { userId: user.id, ...entry.address };
    mandatory = mode === 'mandatory';
  } else {
    return null;
  }
  // Mandatory verification holds the login; optional mails the address and logs in.
  const flow = await mailed(deps, ctx, target, mandatory ? startOf(login) : null);
  if (!flow) return { failed: mailUnavailable };
  if (mandatory) return { hold: flow };
  return flow.codeHash ? { alongside: flow } : null;
}

async function verifyPhone(deps: Deps, ctx: RequestContext, conn: Conn, login: Login): Promise<Begun> {
  const { account } = deps.config;
  const { entry } = login;
  if (entry.via === 'signup' && !entry.phone) return null;
  if (!account.phone.verificationEnabled || !account.signupFields.phone) return null;
  const number = await findPhoneOfUser(conn, login.user.id);
  if (!number || number.verified) return null;
  const started = await beginPhoneVerification(deps, ctx, { userId: login.user.id, phone: number.phone }, startOf(login));
  return started.ok ? { hold: started.flow } : { failed: started.outcome };
}

async function secondFactor(deps: Deps, ctx: RequestContext, conn: Conn, login: Login): Promise<Begun> {
  const { mfa, account } = deps.config;
  if (!mfa.enabled || login.methods.some(passwordless)) return null;
  const types = await authenticatorTypes(conn, login.user.id);
  // Recovery codes alone never ask: they back up a TOTP or WebAuthn authenticator.
  if (!types.includes('totp') && !types.includes('webauthn')) return null;
  if (await isTrustedBrowser(deps, ctx, conn, login.user)) return null;
  const expiresAt = ctx.now + account.loginTimeout * 1000;
  return { hold: { id: 'mfa_authenticate', userId: login.user.id, methods: login.methods, types, expiresAt }, newKey: true };
}

async function trustThisBrowser(deps: Deps, ctx: RequestContext, _conn: Conn, login: Login): Promise<Begun> {
  if (login.passed !== 'mfa_authenticate' || !deps.config.mfa.trust.enabled || ctx.client !== 'browser') return null;
  return { hold: { id: 'mfa_trust', userId: login.user.id, methods: login.methods, expiresAt: login.deadline! } };
}

async function passkeyOfSignup(deps: Deps, ctx: RequestContext, _conn: Conn, login: Login): Promise<Begun> {
  const { mfa, account } = deps.config;
  if (!mfa.enabled || !mfa.passkeySignup || login.signup !== 'passkey') return null;
  const expiresAt = ctx.now + account.loginTimeout * 1000;
  return { hold: { id: 'mfa_signup_webauthn', userId: login.user.id, methods: login.methods, expiresAt }, newKey: true };
}

/** The stages, in the reference's order. */
const stages: Stage[] = [
  { id: 'verify_email', begin: verifyEmail },
  { id: 'verify_phone', begin: verifyPhone },
  { id: 'mfa_authenticate', begin: secondFactor },
  { id: 'mfa_trust', begin: trustThisBrowser },
  { id: 'mfa_signup_webauthn', begin: passkeyOfSignup },
];

/**
 * Takes the login to the first stage after `login.passed` that applies, or,
 * when none does, authenticates the session. With `expectFlow` every write
 * is conditional on the session still holding that flow: null when another
 * request advanced it first (nothing was written).
 */
export async function advanceLogin(deps: Deps, ctx: RequestContext, login: Login, opts: { conn?: Conn; expectFlow?: PendingFlow } = {}): Promise<Outcome | null> {
  const conn = opts.conn ?? deps.db;
  const from = login.passed ? stages.findIndex((s) => s.id === login.passed) + 1 : 0;
  let alongside: VerifyEmailFlow | undefined;
  for (const stage of stages.slice(from)) {
    const begun = await stage.begin(deps, ctx, conn, login);
    if (!begun) continue;
    if ('failed' in begun) return begun.failed;
    if ('stay' in begun) return { kind: 'auth', session: ctx.session, user: null };
    if ('alongside' in begun) {
      alongside = begun.alongside;
      continue;
    }
    const state = await holdAt(deps, ctx, conn, begun.hold, { newKey: begun.newKey ?? false, expectFlow: opts.expectFlow });
    return state && { kind: 'auth', ...state };
  }
  const state = await finishLogin(deps, ctx, conn, login.user, login.methods, { expectFlow: opts.expectFlow, alongside });
  return state && { kind: 'auth', ...state };
}

/** A login whose first factor is `method`. */
export function afterFirstFactor(user: User, method: AuthMethod, entry: Entry): Login {
  return { user, methods: [method], entry };
}

/**
 * The login a verification flow held, once its address or number is proved:
 * it goes on from that stage, written only while the session still holds it.
 */
export function passVerification(deps: Deps, ctx: RequestContext, conn: Conn, flow: VerifyEmailFlow | VerifyPhoneFlow, user: User): Promise<Outcome | null> {
  const start = flow.login!;
  const login: Login = 'signup' in start ? { user, methods: [], signup: start.signup, entry: { via: 'proof' }, passed: flow.id } : { user, methods: [start], entry: { via: 'proof' }, passed: flow.id };
  return advanceLogin(deps, ctx, login, { conn, expectFlow: flow });
}

/** A session waiting at MFA stage `I`, with the flow and its user. */
export type PendingStage<I extends LoginStageFlow['id']> = { session: Session; flow: Extract<LoginStageFlow, { id: I }>; user: User };

export const isPending = <I extends LoginStageFlow['id']>(value: PendingStage<I> | Outcome): value is PendingStage<I> => 'flow' in value;

/**
 * The caller's pending MFA stage `id` with its user, or the 401 for a session
 * that holds no such stage. An expired stage (ACCOUNT_LOGIN_TIMEOUT), or one
 * whose user was deactivated meanwhile, is dropped.
 */
export async function pendingStage<I extends LoginStageFlow['id']>(deps: Deps, ctx: RequestContext, id: I): Promise<PendingStage<I> | Outcome> {
  const session = ctx.session;
  const flow = session?.flow;
  if (!session || !flow || flow.id !== id) return stageNotPending;
  const stage = flow as Extract<LoginStageFlow, { id: I }>;
  const user = stage.expiresAt > ctx.now ? await findUserById(deps.db, stage.userId) : null;
  if (!user?.isActive) {
    await dropFlow(deps, session);
    return { kind: 'stage_not_pending', session: { ...session, flow: null } };
  }
  return { session, flow: stage, user };
}

/**
 * `stage` is passed (`proved`: the factor it proved, if any); the login goes
 * on from the next stage. Null when another request passed it first.
 */
export function passStage<I extends LoginStageFlow['id']>(deps: Deps, ctx: RequestContext, conn: Conn, stage: PendingStage<I>, proved?: AuthMethod): Promise<Outcome | null> {
  const { flow, user } = stage;
  const methods = proved ? [...flow.methods, proved] : flow.methods;
  return advanceLogin(deps, ctx, { user, methods, entry: { via: 'proof' }, passed: flow.id, deadline: flow.expiresAt }, { conn, expectFlow: flow });
}
