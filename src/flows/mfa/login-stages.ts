import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod, LoginStageFlow, MfaAuthenticateFlow, MfaTrustFlow, Session } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import type { Conn } from '../../store/db.js';
import { stageNotPending, type AuthState, type Outcome } from '../outcome.js';
import { findUserById } from '../../store/users.js';
import { updateSessionState } from '../../store/sessions.js';
import { dropFlow, finishLogin } from '../session-ops.js';

// Moving a login through its MFA stages: the pending stage a request may
// complete, and what follows the second factor.

export type Stage<I extends LoginStageFlow['id']> = { session: Session; flow: Extract<LoginStageFlow, { id: I }>; user: User };

export const isStage = <I extends LoginStageFlow['id']>(value: Stage<I> | Outcome): value is Stage<I> => 'flow' in value;

/**
 * The caller's pending stage `id` with its user, or the 401 for a session
 * that holds no such stage. An expired stage (ACCOUNT_LOGIN_TIMEOUT), or one
 * whose user was deactivated meanwhile, is dropped.
 */
export async function pendingStage<I extends LoginStageFlow['id']>(deps: Deps, ctx: RequestContext, id: I): Promise<Stage<I> | Outcome> {
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
 * The second factor is proved: on a browser with MFA_TRUST_ENABLED the login
 * waits for the trust answer; otherwise it completes. Written only if the
 * session still holds `flow`; null when another request completed it first.
 */
export async function passSecondFactor(deps: Deps, ctx: RequestContext, conn: Conn, stage: Stage<'mfa_authenticate'>, method: AuthMethod): Promise<AuthState | null> {
  const flow: MfaAuthenticateFlow = stage.flow;
  const methods = [...flow.methods, method];
  if (deps.config.mfa.trust.enabled && ctx.client === 'browser') {
    const next: MfaTrustFlow = { id: 'mfa_trust', userId: flow.userId, methods, expiresAt: flow.expiresAt };
    const written = await updateSessionState(conn, stage.session.id, { userId: null, methods: [], flow: next, flowAttempts: 0 }, flow);
    return written ? { session: { ...stage.session, flow: next }, user: null } : null;
  }
  // A new key, for apps too (meta.session_token): the key of a half-finished login never becomes a full one's.
  return finishLogin(deps, ctx, stage.user, methods, { conn, expectFlow: flow });
}
