import type { Deps, RequestContext } from '../../context.js';
import type { WebAuthnAuthenticator } from '../../../domain/authenticator.js';
import { invalid, notAuthenticated, type Outcome } from '../../outcome.js';
import { allOrNothing } from '../../../store/all-or-nothing.js';
import { listAuthenticators } from '../../../store/mfa-authenticators.js';
import { addMethod, nowSeconds } from '../../session-ops.js';
import { underFailedLoginLimit } from '../code-check.js';
import { isPending, passStage, pendingStage } from '../../login/pipeline.js';
import { heldChallenge, holdChallenge, request } from './ceremony.js';
import { requestOptions } from './relying-party.js';
import { recordKeyUse, useKey, verifyKeyUse } from './assertion.js';
import { recordFailure } from '../../../audit/recorder.js';

// GET|POST /auth/webauthn/authenticate (the second factor of a login) and
// /auth/webauthn/reauthenticate (a fresh proof for sensitive actions), with
// one of the account's security keys or passkeys.

async function keysOf(deps: Deps, userId: number): Promise<WebAuthnAuthenticator[]> {
  return (await listAuthenticators(deps.db, userId)).filter((a): a is WebAuthnAuthenticator => a.type === 'webauthn');
}

function refused(locked: boolean): Outcome {
  return invalid({ code: locked ? 'too_many_login_attempts' : 'incorrect_code', param: 'credential' });
}

export async function beginSecondFactor(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const stage = await pendingStage(deps, ctx, 'mfa_authenticate');
  if (!isPending(stage)) return stage;
  const { options, challengeHash } = await requestOptions(deps, await keysOf(deps, stage.user.id), 'preferred');
  await holdChallenge(deps, ctx, stage.session, 'webauthn_authenticate', challengeHash, stage.user.id);
  return { kind: 'webauthn_options', options: request(options) };
}

/** Completes the pending second factor with a key of its user; the use and the login commit together. */
export async function secondFactorWithKey(deps: Deps, ctx: RequestContext, credential: Record<string, unknown>): Promise<Outcome> {
  const stage = await pendingStage(deps, ctx, 'mfa_authenticate');
  if (!isPending(stage)) return stage;
  const challenge = await heldChallenge(deps, ctx, 'webauthn_authenticate', stage.user.id);
  const result = await underFailedLoginLimit(deps, ctx, stage.user.id, async () => {
    const use = challenge && (await verifyKeyUse(deps, challenge, credential, stage.user.id, false));
    if (!challenge || !use) return null;
    return allOrNothing(deps.db, async (tx) =>
      (await recordKeyUse(tx, challenge, use, ctx.now)) ? passStage(deps, ctx, tx, stage, { method: 'mfa', at: nowSeconds(ctx.now), id: use.key.id, type: 'webauthn' }) : null,
    );
  });
  if (!result.ok) {
    await recordFailure(deps, ctx, 'login.failed', stage.user.id, result.locked ? 'rate_limited' : 'invalid_credential', { method: 'webauthn' });
    return refused(result.locked);
  }
  return result.value;
}

export async function beginReauthentication(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const { options, challengeHash } = await requestOptions(deps, await keysOf(deps, user.id), 'preferred');
  await holdChallenge(deps, ctx, session, 'webauthn_reauthenticate', challengeHash, user.id);
  return { kind: 'webauthn_options', options: request(options) };
}

/** Proves the user again with a key; the method entry says `reauthenticated`. */
export async function reauthenticateWithKey(deps: Deps, ctx: RequestContext, credential: Record<string, unknown>): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const challenge = await heldChallenge(deps, ctx, 'webauthn_reauthenticate', user.id);
  const result = await underFailedLoginLimit(deps, ctx, user.id, async () =>
    challenge ? useKey(deps, challenge, credential, user.id, { requireUserVerification: false, now: ctx.now }) : null,
  );
  if (!result.ok) {
    await recordFailure(deps, ctx, 'reauthenticated', user.id, result.locked ? 'rate_limited' : 'invalid_credential', { method: 'webauthn' });
    return refused(result.locked);
  }
  const updated = await addMethod(deps, ctx, session, { method: 'mfa', at: nowSeconds(ctx.now), id: result.value.id, type: 'webauthn', reauthenticated: true });
  return { kind: 'auth', session: updated, user };
}
