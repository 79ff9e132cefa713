import type { Deps, RequestContext } from '../context.js';
import type { Config } from '../../config/config.js';
import { invalid, type Outcome } from '../outcome.js';
import { endSession } from '../session-ops.js';
import { hashSecret, randomKey } from '../../security/secrets.js';
import { finishSamlLogout, insertSamlLogout, samlSessionOf } from '../../store/saml-logouts.js';
import { requestIdOf, stateOfRequestId } from '../../social/saml/provider.js';
import { SamlRefused } from '../../social/saml/response.js';
import { samlProviderOf } from './saml-acs.js';

// Single logout both ways. At the SLS (/accounts/saml/<org>/sls/): the
// IdP's LogoutRequest ends this browser's session, as the reference's does,
// and the browser goes back to the IdP with our LogoutResponse; the IdP's
// LogoutResponse must answer a LogoutRequest of ours, and sends the browser
// on to the frontend. A message that does not verify ends nothing: 400, as
// in the reference. From us (beyond the reference): a logout through the API
// of a session that came from a SAML login, where the IdP has an SLO URL,
// gives the client the IdP's URL with our LogoutRequest for the browser to
// go to (front channel, as SPs do: the IdP's session lives in the browser's
// cookies, so a back-channel message could not end it).

/** How long the IdP may take to answer a LogoutRequest of ours. */
export const SAML_LOGOUT_LIFETIME_MS = 10 * 60_000;

/** Where the browser lands once the IdP confirmed the logout: the frontend's root, as the reference's LOGOUT_REDIRECT_URL ("/"). */
export function logoutLanding(config: Config): string {
  return new URL('/', config.frontendUrls.account_login).toString();
}

/**
 * For a logout through the API, before the session ends (its SAML record
 * goes with it): the IdP's SLO URL with a LogoutRequest naming the login's
 * NameID and SessionIndex, or null when the session did not come from SAML,
 * the IdP has no SLO URL, or its metadata cannot be read (the local logout
 * goes on regardless).
 */
export async function samlLogoutRedirect(deps: Deps, ctx: RequestContext): Promise<string | null> {
  if (!ctx.session || !deps.config.social.apps.some((app) => app.type === 'saml')) return null;
  const subject = await samlSessionOf(deps.db, ctx.session.id);
  const provider = subject && samlProviderOf(deps, subject.organization);
  if (!subject || !provider) return null;
  const requestKey = randomKey(24);
  let url: string | null;
  try {
    url = await provider.saml.logoutRequestUrl(subject, requestIdOf(requestKey), subject.origin);
  } catch (error) {
    deps.log.warn({ err: error, provider: provider.app.id }, 'SAML single logout not started: the IdP is unavailable');
    return null;
  }
  if (url) await insertSamlLogout(deps.db, hashSecret(requestKey), subject.organization, ctx.now + SAML_LOGOUT_LIFETIME_MS);
  return url;
}

export interface SlsRequest {
  organization: string;
  query: Record<string, string>;
  /** The query string exactly as sent: the redirect binding signs its bytes. */
  rawQuery: string;
  origin: string;
}

export async function singleLogout(deps: Deps, ctx: RequestContext, request: SlsRequest): Promise<Outcome> {
  const provider = samlProviderOf(deps, request.organization);
  if (!provider) return invalid({ code: 'invalid' });
  let message;
  try {
    message = await provider.saml.logout(request.query, request.rawQuery, request.origin);
  } catch (error) {
    deps.log.warn({ err: error, provider: provider.app.id, saml: error instanceof SamlRefused ? error.code : 'unavailable' }, 'SAML logout message refused');
    return invalid({ code: 'invalid' });
  }
  if (message.kind === 'response') {
    // Only an answer to a LogoutRequest of ours, for this organization, and once.
    const requestKey = message.inResponseTo ? stateOfRequestId(message.inResponseTo) : null;
    const organization = requestKey ? await finishSamlLogout(deps.db, hashSecret(requestKey), ctx.now) : null;
    if (organization !== provider.app.clientId) {
      deps.log.warn({ provider: provider.app.id, saml: 'in_response_to' }, 'SAML logout message refused');
      return invalid({ code: 'invalid' });
    }
    return { kind: 'redirect', location: logoutLanding(deps.config) };
  }
  const auth = ctx.session ? await endSession(deps, ctx) : undefined;
  return { kind: 'redirect', location: message.reply, auth };
}
