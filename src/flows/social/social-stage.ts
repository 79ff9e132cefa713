import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import { invalid, mailUnavailable, type Outcome } from '../outcome.js';
import { listUserEmailAddresses } from '../../store/email-addresses.js';
import { beginVerification } from '../email/email-verification.js';
import { phoneStage } from '../phone/phone-verification.js';
import { endSession, logIn, nowSeconds, startPendingFlow } from '../session-ops.js';

// The end of every social login and signup: the stages a login passes
// before the session is authenticated, as for a password login, but with
// SOCIALACCOUNT_EMAIL_VERIFICATION. The login itself goes through logIn, so
// whatever logIn adds (a second factor) applies to social logins too.

export function socialMethod(ctx: RequestContext, provider: string, uid: string): AuthMethod {
  return { method: 'socialaccount', at: nowSeconds(ctx.now), provider, uid };
}

/**
 * Logs `user` in through the verification stages. Whoever was logged in on
 * this session is logged out first, as the reference does. Under mandatory
 * verification an account without a verified address waits for one
 * (verify_email); optional verification mails a signup's address and logs in.
 */
export async function socialAuthenticate(deps: Deps, ctx: RequestContext, user: User, method: AuthMethod, opts: { signup: boolean }): Promise<Outcome> {
  if (!user.isActive) return invalid({ code: 'account_inactive' });
  let current = ctx;
  if (ctx.user && ctx.user.id !== user.id) {
    await endSession(deps, ctx);
    current = { ...ctx, session: null, user: null };
  }
  const mode = deps.config.social.emailVerification;
  if (mode === 'mandatory' || (mode === 'optional' && opts.signup)) {
    const addresses = await listUserEmailAddresses(deps.db, user.id);
    const primary = addresses.find((a) => a.primary) ?? addresses[0];
    if (primary && !addresses.some((a) => a.verified)) {
      let flow;
      try {
        flow = await beginVerification(deps, current, { userId: user.id, emailAddressId: primary.id, email: primary.email }, mode === 'mandatory' ? method : null);
      } catch (error) {
        deps.log.error({ err: error }, 'verification mail failed');
        return mailUnavailable;
      }
      if (mode === 'mandatory') return { kind: 'auth', ...(await startPendingFlow(deps, current, flow)) };
      // Optional verification by code: logged in, with the code still pending.
      if (flow.codeHash) return { kind: 'auth', ...(await logIn(deps, current, user, method, { pendingFlow: flow }))! };
    }
  }
  const phonePending = await phoneStage(deps, current, user, method);
  if (phonePending) return phonePending;
  return { kind: 'auth', ...(await logIn(deps, current, user, method))! };
}
