import type { Deps, RequestContext } from '../context.js';
import type { AuthState, Outcome } from '../outcome.js';
import { hashSecret } from '../../security/secrets.js';
import { attachPostedUser, takeState } from '../../store/social-states.js';
import { cleanIdentity } from './identity.js';
import { completeSocialLogin, type Process } from './social-login.js';
import { loginErrorUrl, withQuery } from './navigation.js';
import { nonceSealContext, secretSealContext, stateSealContext } from './redirect.js';
import { providerType } from '../../social/providers/index.js';
import type { CallbackProtocol } from '../../social/provider-type.js';

// The provider sends the browser back here (/accounts/.../login/callback/).
// The state is redeemed once, by the browser that started the flow, before
// any code is; then the code is exchanged and the login completed. The
// browser always moves on: to the callback_url (with ?error=... when the
// login failed), or, without a usable state, to socialaccount_login_error.

export interface CallbackRequest {
  /** The callback's path names an openid_connect app by id, or a provider type. */
  route: { type: string; providerId?: string };
  params: URLSearchParams;
  /** The browser's binding cookie, if it sent one. */
  binding: string | undefined;
}

/** Whether a state's app is the one this callback path serves. */
function servedHere(deps: Deps, route: CallbackRequest['route'], providerId: string, clientId: string): boolean {
  const provider = deps.social.get(providerId, clientId);
  if (!provider || provider.app.type !== route.type) return false;
  return route.providerId === undefined || route.providerId === provider.app.id;
}

/** OAuth 2's callback: `state` names the flow, `error` (access_denied: declined) or `code` says how it went. */
const OAUTH2_CALLBACK: CallbackProtocol = {
  stateKey: (params) => params.get('state'),
  answer(params) {
    const error = params.get('error');
    if (error !== null) return error === 'access_denied' ? 'cancelled' : 'failed';
    return params.has('code') ? 'answered' : 'failed';
  },
};

export async function completeProviderCallback(deps: Deps, ctx: RequestContext, request: CallbackRequest): Promise<Outcome> {
  const protocol = providerType(request.route.type)?.callback ?? OAUTH2_CALLBACK;
  const stateParam = protocol.stateKey(request.params);
  const state = stateParam && request.binding ? await takeState(deps.db, hashSecret(stateParam), hashSecret(request.binding), ctx.now) : null;
  if (!stateParam || !state || !servedHere(deps, request.route, state.provider, state.clientId)) {
    return { kind: 'redirect', location: loginErrorUrl(deps.config, 'login') };
  }
  const process = state.process as Process;
  const back = (error?: string, auth?: AuthState): Outcome => ({
    kind: 'redirect',
    location: error ? withQuery(state.callbackUrl, { error, error_process: process }) : state.callbackUrl,
    auth,
  });
  const answer = protocol.answer(request.params);
  if (answer !== 'answered') return back(answer === 'cancelled' ? 'cancelled' : 'unknown');
  // A connect completes for the user who started it, not whoever is logged in by now.
  if (process === 'connect' && ctx.user?.id !== state.userId) return back('permission_denied');

  const provider = deps.social.get(state.provider, state.clientId)!;
  const stateHash = hashSecret(stateParam);
  const codeVerifier = state.codeVerifier === null ? null : deps.atRest.open(state.codeVerifier, stateSealContext(stateHash));
  const nonce = state.nonce === null ? null : deps.atRest.open(state.nonce, nonceSealContext(stateHash));
  // A nonce that no longer opens (SECRET_KEY changed) must not turn into no nonce check at all.
  if (state.nonce !== null && nonce === null) return back('unknown');
  const secret = state.secret === null ? null : deps.atRest.open(state.secret, secretSealContext(stateHash));
  if (state.secret !== null && secret === null) return back('unknown');
  let verified;
  try {
    verified = await provider.completeRedirect({ params: request.params, redirectUri: state.redirectUri, state: stateParam, codeVerifier, nonce, postedUser: state.postedUser, secret });
  } catch (failure) {
    deps.log.warn({ err: failure, provider: provider.app.id }, 'provider login failed at the callback');
    return back('unknown');
  }
  const login = { app: provider.app, identity: cleanIdentity(provider.app, verified.identity), tokens: verified.tokens };
  return landing(await completeSocialLogin(deps, ctx, provider, login, process), process, back);
}

/** The browser's landing for the login's outcome: callback_url, with the reference's error names. */
export function landing(outcome: Outcome, process: Process, back: (error?: string, auth?: AuthState) => Outcome): Outcome {
  switch (outcome.kind) {
    case 'auth': {
      const authenticated = outcome.user !== null && outcome.session?.userId === outcome.user.id;
      // Nothing authenticated and nothing pending: the reference lands with error=unknown.
      return back(authenticated || outcome.session?.flow ? undefined : 'unknown', outcome);
    }
    case 'invalid':
    case 'unavailable':
      return back(outcome.errors[0]?.code ?? 'unknown');
    case 'forbidden':
      return back(process === 'connect' ? 'permission_denied' : 'signup_closed');
    case 'rate_limited':
      return back('rate_limited');
    default:
      return back('unknown');
  }
}

/**
 * Apple's form_post arrives cross-site, without the browser's cookies: its
 * `user` field (the name, sent on the first login only) is kept with the
 * state, and the browser is sent on to the second leg, a same-site GET that
 * carries the binding cookie.
 */
export async function keepPostedUser(deps: Deps, ctx: RequestContext, params: URLSearchParams): Promise<void> {
  const state = params.get('state');
  const user = params.get('user');
  if (state && user) await attachPostedUser(deps.db, hashSecret(state), user.slice(0, 4096), ctx.now);
}
