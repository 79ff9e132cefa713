import type { Deps, RequestContext } from '../context.js';
import type { Outcome } from '../outcome.js';
import { endSession } from '../session-ops.js';
import { samlLogoutRedirect } from '../social/saml-logout.js';

/** GET /auth/session: the state as the request's session has it. */
export function currentSession(ctx: RequestContext): Outcome {
  return { kind: 'auth', session: ctx.session, user: ctx.user };
}

/** DELETE /auth/session: logout; the key stops working at once. A session from a SAML login also starts the IdP's single logout. */
export async function logout(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const logoutRedirectUrl = await samlLogoutRedirect(deps, ctx);
  return { kind: 'auth', ...(await endSession(deps, ctx)), ...(logoutRedirectUrl ? { logoutRedirectUrl } : {}) };
}
