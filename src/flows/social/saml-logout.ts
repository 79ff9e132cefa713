import type { Deps, RequestContext } from '../context.js';
import { invalid, type Outcome } from '../outcome.js';
import { endSession } from '../session-ops.js';
import { SamlRefused } from '../../social/saml/response.js';
import { samlProviderOf } from './saml-acs.js';

// The SLS (/accounts/saml/<org>/sls/): the IdP's LogoutRequest ends this
// browser's session, as the reference's does, and the browser goes back to
// the IdP with our LogoutResponse; the IdP's LogoutResponse to a logout of
// ours sends the browser on to the frontend. A message that does not verify
// ends nothing: 400, as in the reference.

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
  if (message.kind === 'response') return { kind: 'redirect', location: deps.config.frontendUrls.socialaccount_login_error.replace(/\?.*$/, '') };
  const auth = ctx.session ? await endSession(deps, ctx) : undefined;
  return { kind: 'redirect', location: message.reply, auth };
}
