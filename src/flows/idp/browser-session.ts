import type { Deps } from '../context.js';
import { findLiveSession } from '../../store/sessions.js';
import { decideLogin, type LoginDecision, type LoginPromptDetails } from '../../idp/interactions.js';
import { endSession } from '../session-ops.js';

// What the OpenID provider learns of the browser's session here (its
// cookie's key): who is logged in, for an interaction's login prompt; and
// that session's end, when the user logs out of the provider from a client
// (RP-initiated logout) and chooses to log out here too.

/** The login an interaction's prompt gets from the browser's session, or the SPA's login page. */
export async function interactionLogin(deps: Deps, sessionKey: string | undefined, prompt: LoginPromptDetails): Promise<LoginDecision> {
  const now = deps.clock.now();
  const found = sessionKey ? await findLiveSession(deps.db, sessionKey, now) : null;
  return decideLogin(found, prompt, now);
}

/** Ends the browser's session, a logout like any other (its event, back-channel logouts). */
export async function endBrowserSession(deps: Deps, sessionKey: string, ip: string, userAgent: string): Promise<void> {
  const now = deps.clock.now();
  const found = await findLiveSession(deps.db, sessionKey, now);
  if (found) await endSession(deps, { client: 'browser', ip, userAgent, language: deps.i18n.defaultLanguage, now, session: found.session, user: found.user });
}
