import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../../context.js';
import { conflict, invalid, type Outcome } from '../../outcome.js';
import { allOrNothing } from '../../../store/all-or-nothing.js';
import { takeChallenge } from '../../../store/mfa-challenges.js';
import { findWebAuthnByCredentialId, insertWebAuthn } from '../../../store/mfa-authenticators.js';
import { findUserById } from '../../../store/users.js';
import type { AuthMethod } from '../../../domain/session.js';
import { nowSeconds } from '../../session-ops.js';
import { advanceLogin, afterFirstFactor, isPending, passStage, pendingStage } from '../../login/pipeline.js';
import { signup } from '../../auth/signup.js';
import { underFailedLoginLimit } from '../code-check.js';
import { creation, heldChallenge, holdChallenge, request, visitorSession } from './ceremony.js';
import { assertedCredentialId, creationOptions, decoyKey, requestOptions, verifyAssertion, verifyCreation } from './relying-party.js';
import { recordKeyUse } from './assertion.js';
import { CredentialRef, KeyName } from './credential.js';
import { recordEvent, recordFailure } from '../../../audit/recorder.js';

// Passkeys as the only factor: login without a username
// (MFA_PASSKEY_LOGIN_ENABLED) and signup without a password
// (MFA_PASSKEY_SIGNUP_ENABLED).

/** GET /auth/webauthn/login: options for any discoverable credential of this site; the challenge waits in the visitor's session. */
export async function beginPasskeyLogin(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  if (ctx.user) return conflict;
  if (!ctx.session) {
    // A session is stored for each caller that brings none: counted per address.
    const limit = await deps.limiter.consume('passkey_login_session', { ip: ctx.ip });
    if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };
  }
  const { session, state } = await visitorSession(deps, ctx);
  // A passkey stands in for both factors, so it must have verified its user.
  const { options, challengeHash } = await requestOptions(deps, [], 'required');
  await holdChallenge(deps, ctx, session, 'webauthn_login', challengeHash, null);
  return { kind: 'webauthn_options', options: request(options), state };
}

/**
 * POST /auth/webauthn/login: the account is the one the passkey was
 * registered to, found by its credential id (unique here). Its user handle
 * is not signed and, for a passkey imported from another deployment, names
 * the account's id there. The signature, with user verification, logs the
 * account in (no second factor follows; email or phone verification still may).
 */
export async function passkeyLogin(deps: Deps, ctx: RequestContext, credential: Record<string, unknown>): Promise<Outcome> {
  if (ctx.user) return conflict;
  const credentialId = assertedCredentialId(credential);
  const key = credentialId === null ? null : await findWebAuthnByCredentialId(deps.db, credentialId);
  const challenge = await heldChallenge(deps, ctx, 'webauthn_login', null);
  // An id that names no key spends the limit (per address: there is no
  // account) and is checked against a decoy key: the same work and the same
  // refusal as a wrong signature, so neither time nor answer tells them apart.
  const result = await underFailedLoginLimit(deps, ctx, key?.userId ?? null, async () => {
    if (!challenge) return null;
    const counter = await verifyAssertion(deps, credential, challenge.value, key ?? (await decoyKey()), true);
    if (key === null || counter === null) return null;
    return allOrNothing(deps.db, async (tx) => ((await recordKeyUse(tx, challenge, { key, counter }, ctx.now)) ? key : null));
  });
  if (!result.ok) {
    // The credential names an account only if its signature verified; otherwise it is just what was sent.
    await recordFailure(deps, ctx, 'login.failed', null, result.locked ? 'rate_limited' : 'invalid_credential', { method: 'passkey' });
    return invalid({ code: result.locked ? 'too_many_login_attempts' : 'incorrect_code', param: 'credential' });
  }
  const user = await findUserById(deps.db, result.value.userId);
  if (!user?.isActive) {
    if (user) await recordFailure(deps, ctx, 'login.failed', user.id, 'inactive', { method: 'passkey' });
    return invalid({ code: 'account_inactive' });
  }
  const method: AuthMethod = { method: 'mfa', at: nowSeconds(ctx.now), id: result.value.id, type: 'webauthn', passwordless: true };
  return (await advanceLogin(deps, ctx, afterFirstFactor(user, method, { via: 'credentials', email: user.email })))!;
}

/** POST /auth/webauthn/signup's body: the signup form without a password. */
export const PasskeySignupInput = Type.Object({
  email: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String()),
  first_name: Type.Optional(Type.String({ description: 'When ACCOUNT_SIGNUP_FIELDS has first_name.' })),
  last_name: Type.Optional(Type.String({ description: 'When ACCOUNT_SIGNUP_FIELDS has last_name.' })),
});
export type PasskeySignupInput = Static<typeof PasskeySignupInput>;

/** POST /auth/webauthn/signup: a signup without a password; the login then waits for the passkey. */
export function passkeySignup(deps: Deps, ctx: RequestContext, input: PasskeySignupInput): Promise<Outcome> {
  return signup(deps, ctx, input, { passkey: true });
}

/** GET /auth/webauthn/signup: creation options for the passkey of the pending signup (409 when none is pending). */
export async function beginPasskeySignup(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const stage = await pendingStage(deps, ctx, 'mfa_signup_webauthn');
  if (!isPending(stage)) return conflict;
  const { options, challengeHash } = await creationOptions(deps, stage.user, [], true);
  await holdChallenge(deps, ctx, stage.session, 'webauthn_signup', challengeHash, stage.user.id);
  return { kind: 'webauthn_options', options: creation(options) };
}

/** PUT /auth/webauthn/signup's body. */
export const PasskeyInput = Type.Object({ name: Type.Optional(KeyName), credential: CredentialRef });
export type PasskeyInput = Static<typeof PasskeyInput>;

/** PUT /auth/webauthn/signup: registers the passkey and completes the login it was waiting for. */
export async function completePasskeySignup(deps: Deps, ctx: RequestContext, input: PasskeyInput): Promise<Outcome> {
  const stage = await pendingStage(deps, ctx, 'mfa_signup_webauthn');
  if (!isPending(stage)) return conflict;
  const name = input.name?.trim() || 'Master key';
  if (name.length > 100) return invalid({ code: 'max_length', param: 'name' });
  const challenge = await heldChallenge(deps, ctx, 'webauthn_signup', stage.user.id);
  const made = challenge && (await verifyCreation(deps, input.credential, challenge.value, true));
  if (!challenge || !made) return invalid({ code: 'incorrect_code' });
  const passed = await allOrNothing(deps.db, async (tx) => {
    if (!(await takeChallenge(tx, challenge))) return null;
    const passkey = await insertWebAuthn(tx, { userId: stage.user.id, name, ...made, now: ctx.now });
    if (!passkey) return null;
    await recordEvent(deps, tx, ctx, 'authenticator.added', { userId: stage.user.id, detail: { authenticator: 'webauthn', authenticator_id: passkey.id, method: 'passkey' } });
    return passStage(deps, ctx, tx, stage);
  });
  return passed ?? invalid({ code: 'incorrect_code' });
}
