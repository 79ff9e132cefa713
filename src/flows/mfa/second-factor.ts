import type { Deps, RequestContext } from '../context.js';
import { invalid, notAuthenticated, stageNotPending, type Outcome } from '../outcome.js';
import { addMethod, nowSeconds } from '../session-ops.js';
import { allOrNothing } from '../../store/all-or-nothing.js';
import { matchCode, spendCode, spendMatch, underFailedLoginLimit, type Limited } from './code-check.js';
import { isPending, passStage, pendingStage } from '../login/pipeline.js';
import { trustCookieValue } from './trust.js';
import { recordFailure } from '../../audit/recorder.js';

// POST /auth/2fa/authenticate, /auth/2fa/reauthenticate and /auth/2fa/trust:
// a typed code (TOTP or recovery code) as the second step of a login or as
// a fresh proof for sensitive actions, and the "trust this browser" answer.

function refused(result: Limited<unknown> & { ok: false }): Outcome {
  return invalid({ code: result.locked ? 'too_many_login_attempts' : 'incorrect_code', param: 'code' });
}

/**
 * Completes the pending mfa_authenticate stage with a code of its user. The
 * code is checked without writing anything; a right one is spent and the
 * login completed in one transaction, so a code never goes to waste on a
 * login another request completed first.
 */
export async function authenticateWithCode(deps: Deps, ctx: RequestContext, code: string): Promise<Outcome> {
  const stage = await pendingStage(deps, ctx, 'mfa_authenticate');
  if (!isPending(stage)) return stage;
  const result = await underFailedLoginLimit(deps, ctx, stage.user.id, async () => {
    const match = await matchCode(deps, deps.db, stage.user.id, code, ctx.now);
    if (!match) return null;
    const { id, type } = match.authenticator;
    return allOrNothing(deps.db, async (tx) =>
      (await spendMatch(deps, tx, match, ctx.now)) ? passStage(deps, ctx, tx, stage, { method: 'mfa', at: nowSeconds(ctx.now), id, type }) : null,
    );
  });
  if (!result.ok) {
    await recordFailure(deps, ctx, 'login.failed', stage.user.id, result.locked ? 'rate_limited' : 'invalid_code', { method: 'mfa' });
    return refused(result);
  }
  return result.value;
}

/** Proves the user again with a code; the method is recorded (without `reauthenticated`, as the reference records it). */
export async function reauthenticateWithCode(deps: Deps, ctx: RequestContext, code: string): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const result = await underFailedLoginLimit(deps, ctx, user.id, () => spendCode(deps, deps.db, user.id, code, ctx.now));
  if (!result.ok) {
    await recordFailure(deps, ctx, 'reauthenticated', user.id, result.locked ? 'rate_limited' : 'invalid_code', { method: 'mfa' });
    return refused(result);
  }
  const updated = await addMethod(deps, ctx, session, { method: 'mfa', at: nowSeconds(ctx.now), id: result.value.id, type: result.value.type });
  return { kind: 'auth', session: updated, user };
}

/** Completes the pending mfa_trust stage; `trust` sets the cookie that skips the second factor on this browser. */
export async function answerTrust(deps: Deps, ctx: RequestContext, trust: boolean): Promise<Outcome> {
  const stage = await pendingStage(deps, ctx, 'mfa_trust');
  if (!isPending(stage)) return stage;
  const passed = await passStage(deps, ctx, deps.db, stage);
  if (!passed) return stageNotPending;
  if (!trust || passed.kind !== 'auth') return passed;
  return { ...passed, trustBrowser: await trustCookieValue(deps, ctx, deps.db, stage.user) };
}
