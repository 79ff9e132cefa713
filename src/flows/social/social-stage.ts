import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import { invalid, type Outcome } from '../outcome.js';
import { endSession, nowSeconds } from '../session-ops.js';
import { advanceLogin, afterFirstFactor } from '../login/pipeline.js';

// The end of every social login and signup: the provider's account is the
// first factor, and the login goes through the same stages as any other,
// with SOCIALACCOUNT_EMAIL_VERIFICATION for the address.

export function socialMethod(ctx: RequestContext, provider: string, uid: string): AuthMethod {
  return { method: 'socialaccount', at: nowSeconds(ctx.now), provider, uid };
}

/** Logs `user` in; whoever was logged in on this session is logged out first, as the reference does. */
export async function socialAuthenticate(deps: Deps, ctx: RequestContext, user: User, method: AuthMethod, opts: { signup: boolean }): Promise<Outcome> {
  if (!user.isActive) return invalid({ code: 'account_inactive' });
  let current = ctx;
  if (ctx.user && ctx.user.id !== user.id) {
    await endSession(deps, ctx);
    current = { ...ctx, session: null, user: null };
  }
  return (await advanceLogin(deps, current, afterFirstFactor(user, method, { via: 'social', signup: opts.signup })))!;
}
