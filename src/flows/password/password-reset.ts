import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod, PasswordResetByCodeFlow, Session } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import { conflict, invalid, type AuthState, type Outcome } from '../outcome.js';
import { emailError, normalizeEmail, passwordErrors } from '../validate.js';
import { hashPassword } from '../../security/passwords.js';
import { hashSecret, randomCode, randomKey } from '../../security/secrets.js';
import { issueResetKey, readResetKey, resetKeyCurrent } from './reset-key.js';
import { addressOwner } from '../email/address-owner.js';
import { recordEvent } from '../../audit/recorder.js';
import { revokeProviderGrants } from '../idp/grant-revocation.js';
import { findEmailAddress, findEmailAddressById, listUserEmailAddresses, markEmailVerified } from '../../store/email-addresses.js';
import { findLastLogin, findUserById, replacePasswordHash, setPasswordHash } from '../../store/users.js';
import { deleteUserSessions, updateSessionState } from '../../store/sessions.js';
import type { Conn } from '../../store/db.js';
import { sendNotification, sendPasswordReset, sendUnknownAccount } from '../../messaging/notices.js';
import { checkFlowCode } from '../code-attempt.js';
import { cycleKey, nowSeconds, startPendingFlow } from '../session-ops.js';
import { advanceLogin, afterFirstFactor } from '../login/pipeline.js';
import { findPhoneOfUser, markPhoneVerified } from '../../store/phones.js';
import { sendAfterAnswer, sendNotice } from '../notice.js';

// Password reset by link (a signed key, reset-key.ts) or by code (a code
// hash in the session's pending flow), as ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED says.

/**
 * POST /auth/password/request. Known and unknown addresses answer alike,
 * in the same time. By link (with ACCOUNT_PREVENT_ENUMERATION, the default)
 * the answer depends on nothing but the input, so the account is looked up
 * and the mail (the reset, or an "unknown account" notice) made and sent
 * after the answer. By code the session must hold the pending flow first:
 * the same two lookups and one session write either way, then the mail.
 */
export async function requestPasswordReset(deps: Deps, ctx: RequestContext, input: { email?: string }): Promise<Outcome> {
  const { account } = deps.config;
  if (input.email === undefined) return invalid({ code: 'required', param: 'email' });
  const email = normalizeEmail(input.email);
  const error = emailError(email);
  if (error) return invalid(error);
  const limit = await deps.limiter.consume('reset_password', { ip: ctx.ip, key: email });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };

  if (!account.passwordReset.byCode && account.preventEnumeration) {
    sendAfterAnswer(deps, 'password reset', async () => mailResetLink(deps, ctx, email, await addressOwner(deps, email)));
    return { kind: 'ok' };
  }
  const owner = await addressOwner(deps, email);
  if (!owner.user && !account.preventEnumeration) return invalid({ code: 'unknown_email', param: 'email' });
  if (!account.passwordReset.byCode) {
    sendAfterAnswer(deps, 'password reset', () => mailResetLink(deps, ctx, email, owner));
    return { kind: 'ok' };
  }

  const { address, user } = owner;
  const to = address?.email ?? email;
  const code = randomCode();
  const flow: PasswordResetByCodeFlow = {
    id: 'password_reset_by_code',
    userId: user?.id ?? null,
    email: to,
    codeHash: hashSecret(user ? code : randomKey()),
    expiresAt: ctx.now + account.passwordReset.byCodeTimeout * 1000,
  };
  const state = await holdFlow(deps, ctx, flow);
  sendAfterAnswer(deps, 'password reset', () => (user ? sendPasswordReset(deps, ctx.language, to, { code }) : sendUnknownAccount(deps, ctx.language, to)));
  return { kind: 'auth', ...state };
}

/** The reset link to an account's address, or the "unknown account" notice to an address without one. */
async function mailResetLink(deps: Deps, ctx: RequestContext, email: string, { address, user }: Awaited<ReturnType<typeof addressOwner>>): Promise<void> {
  if (!user || !address) return sendUnknownAccount(deps, ctx.language, email);
  const claims = { userId: user.id, emailAddressId: address.id, issuedAt: ctx.now };
  const key = issueResetKey(deps.config, claims, { passwordHash: user.passwordHash, lastLoginAt: await findLastLogin(deps.db, user.id), email: address.email });
  return sendPasswordReset(deps, ctx.language, address.email, { key, user });
}

/** A logged-in visitor keeps their login while the reset code is pending. */
export async function holdFlow(deps: Deps, ctx: RequestContext, flow: PasswordResetByCodeFlow): Promise<AuthState> {
  if (!ctx.session || !ctx.user) return startPendingFlow(deps, ctx, flow);
  const session: Session = { ...ctx.session, flow, flowAttempts: 0 };
  await updateSessionState(deps.db, session.id, { userId: session.userId, methods: session.methods, flow, flowAttempts: 0 });
  return { session, user: ctx.user };
}

function pendingReset(session: Session | null): PasswordResetByCodeFlow | null {
  return session?.flow?.id === 'password_reset_by_code' ? session.flow : null;
}

/** What a key or code proves: the account to reset (as read), the address it reached, and how to spend the proof. */
type Proof = { user: User; emailAddressId: number | null; email: string | null } & ({ by: 'key' } | { by: 'code'; session: Session; flow: PasswordResetByCodeFlow });

async function prove(deps: Deps, ctx: RequestContext, key: string): Promise<Proof | Outcome> {
  if (deps.config.account.passwordReset.byCode) {
    const session = ctx.session;
    const flow = pendingReset(session);
    if (!session || !flow) return conflict;
    const verdict = await checkFlowCode(deps, session, flow, key, deps.config.account.passwordReset.byCodeMaxAttempts, ctx.now);
    if (verdict === 'gone') return conflict;
    if (verdict === 'wrong') return invalid({ code: 'incorrect_code', param: 'key' });
    const user = await findUserById(deps.db, flow.userId!);
    if (!user?.isActive) return conflict;
    const address = flow.email === null ? null : await findEmailAddress(deps.db, flow.email);
    return { by: 'code', user, session, flow, email: flow.email, emailAddressId: address?.userId === user.id ? address.id : null };
  }
  const refused = invalid({ code: 'invalid_password_reset', param: 'key' });
  const claims = readResetKey(deps.config, key, ctx.now);
  const user = claims ? await findUserById(deps.db, claims.userId) : null;
  if (!claims || !user?.isActive) return refused;
  const address = claims.emailAddressId === null ? null : await findEmailAddressById(deps.db, claims.emailAddressId);
  const own = address?.userId === user.id ? address : null;
  // A key dies once the account moves on: a new password (its own use sets one), a login, another address.
  const state = { passwordHash: user.passwordHash, lastLoginAt: await findLastLogin(deps.db, user.id), email: own?.email ?? null };
  if (claims.issuedAt <= user.passwordChangedAt || !resetKeyCurrent(claims, state)) return refused;
  return { by: 'key', user, email: own?.email ?? null, emailAddressId: own?.id ?? null };
}

const isProof = (value: Proof | Outcome): value is Proof => 'by' in value;

/**
 * GET /auth/password/reset: whose password a key or code would reset. The
 * code arrived by mail, so a correct one also verifies that address.
 */
export async function describePasswordReset(deps: Deps, ctx: RequestContext, key: string): Promise<Outcome> {
  const limit = await deps.limiter.consume('reset_password_from_key', { ip: ctx.ip });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };
  const proof = await prove(deps, ctx, key);
  if (!isProof(proof)) return proof;
  const { emailAddressId } = proof;
  if (proof.by === 'code' && emailAddressId !== null) {
    await deps.db.transaction().execute(async (tx) => {
      if (await markEmailVerified(tx, emailAddressId)) {
        await recordEvent(deps, tx, ctx, 'email.verified', { userId: proof.user.id, detail: { method: 'password_reset', ...(proof.email ? { email: proof.email } : {}) } });
      }
    });
  }
  return { kind: 'password_reset_info', user: proof.user };
}

/** POST /auth/password/reset's body. */
export const ResetPasswordInput = Type.Object({
  key: Type.String({ description: 'The key from the reset link, or the code when reset is by code.' }),
  password: Type.String(),
});
export type ResetPasswordInput = Static<typeof ResetPasswordInput>;

/**
 * POST /auth/password/reset. The key or code is spent in the same
 * transaction that sets the password, conditionally, so parallel requests
 * redeem it once: a key by setting the password only if it is still the one
 * the key was checked against, a code by ending its flow. Every other
 * session of the user ends, as do their OpenID provider grants, and its
 * failed-login counters are cleared.
 */
export async function resetPassword(deps: Deps, ctx: RequestContext, input: ResetPasswordInput): Promise<Outcome> {
  const limit = await deps.limiter.consume('reset_password_from_key', { ip: ctx.ip });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };
  const proof = await prove(deps, ctx, input.key);
  if (!isProof(proof)) return proof;
  const { user } = proof;
  const errors = passwordErrors(deps.config, input.password, 'password', [user.email, user.username]);
  if (errors.length > 0) return invalid(...errors);

  const hash = await hashPassword(input.password);
  const updated: User = { ...user, passwordHash: hash, passwordChangedAt: ctx.now };
  const outcome = await deps.db.transaction().execute(async (tx): Promise<Outcome> => {
    const spent = await spendProofSettingPassword(tx, ctx, proof, hash);
    if (spent !== null) return spent;
    await recordEvent(deps, tx, ctx, 'password.reset', { userId: user.id, detail: { method: proof.by === 'key' ? 'password_reset' : 'code' } });
    await revokeProviderGrants(deps, tx, ctx, user.id);
    if (proof.emailAddressId !== null && (await markEmailVerified(tx, proof.emailAddressId))) {
      await recordEvent(deps, tx, ctx, 'email.verified', { userId: user.id, detail: { method: 'password_reset', ...(proof.email ? { email: proof.email } : {}) } });
    }
    // A code texted to the number proves the number, as a mailed one proves the address.
    if (proof.by === 'code' && proof.flow.phone && (await markPhoneVerified(tx, user.id, proof.flow.phone)) === 'newly') {
      await recordEvent(deps, tx, ctx, 'phone.verified', { userId: user.id, detail: { phone: proof.flow.phone, method: 'password_reset' } });
    }
    await deleteUserSessions(tx, user.id, ctx.session?.id ?? null);
    return sessionAfterReset(deps, tx, ctx, updated, proof);
  });
  if (outcome.kind !== 'auth') return outcome;

  await clearFailedLogins(deps, ctx, user);
  if (user.email) {
    await sendNotice(deps, sendNotification(deps, ctx, 'account/email/password_reset', user.email), 'password-reset');
  }
  return outcome;
}

/** Spends the key or code and sets the new password; an outcome when a parallel request spent it first. */
async function spendProofSettingPassword(tx: Conn, ctx: RequestContext, proof: Proof, hash: string): Promise<Outcome | null> {
  if (proof.by === 'key') {
    const replaced = await replacePasswordHash(tx, proof.user.id, hash, ctx.now, proof.user.passwordChangedAt);
    return replaced ? null : invalid({ code: 'invalid_password_reset', param: 'key' });
  }
  const { session, flow } = proof;
  const cleared = await updateSessionState(tx, session.id, { userId: session.userId, methods: session.methods, flow: null, flowAttempts: 0 }, flow);
  if (!cleared) return conflict;
  await setPasswordHash(tx, proof.user.id, hash, ctx.now);
  return null;
}

/** Logged in per ACCOUNT_LOGIN_ON_PASSWORD_RESET; otherwise the session stays as it was, minus the flow. */
async function sessionAfterReset(deps: Deps, tx: Conn, ctx: RequestContext, user: User, proof: Proof): Promise<Outcome> {
  if (deps.config.account.passwordReset.loginOnReset) {
    const { email } = proof;
    const method: AuthMethod = { method: 'password_reset', at: nowSeconds(ctx.now), ...(email ? { email } : {}) };
    return (await advanceLogin(deps, ctx, afterFirstFactor(user, method, { via: 'proof' }), { conn: tx }))!;
  }
  const session = ctx.session && proof.by === 'code' ? { ...ctx.session, flow: null, flowAttempts: 0 } : ctx.session;
  // The user's own session survives the reset with a new key, as after a password change.
  if (session && ctx.user?.id === user.id) return { kind: 'auth', session, user, newSessionKey: await cycleKey(deps, tx, session) };
  return { kind: 'auth', session, user: ctx.user };
}

/** A successful reset lifts the failed-login lockout on every identifier of the account. */
async function clearFailedLogins(deps: Deps, ctx: RequestContext, user: User): Promise<void> {
  const addresses = await listUserEmailAddresses(deps.db, user.id);
  const phone = await findPhoneOfUser(deps.db, user.id);
  const keys = [...addresses.map((a) => a.email), ...(user.username ? [user.username] : []), ...(phone ? [phone.phone] : [])];
  await Promise.all(keys.map((key) => deps.limiter.clear('login_failed', { ip: ctx.ip, key })));
}
