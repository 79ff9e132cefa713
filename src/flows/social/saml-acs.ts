import type { Deps, RequestContext } from '../context.js';
import type { AuthState, Outcome } from '../outcome.js';
import { hashSecret, randomKey } from '../../security/secrets.js';
import { takeState } from '../../store/social-states.js';
import { insertAcsPost, takeAcsPost } from '../../store/saml-acs-posts.js';
import { recordSamlSession } from '../../store/saml-logouts.js';
import { recordTokenUse } from '../../store/social-token-uses.js';
import { isSamlProvider, stateOfRequestId, type PostForm, type SamlProvider } from '../../social/saml/provider.js';
import { SamlRefused } from '../../social/saml/response.js';
import { samlIdentity } from '../../social/saml/identity.js';
import { cleanIdentity } from './identity.js';
import { completeSocialLogin, type Process } from './social-login.js';
import { landing } from './callback.js';
import { frontendHosts, loginErrorUrl, safeCallbackUrl, withQuery } from './navigation.js';

// SAML's assertion consumer service, in two legs as the reference's: the
// IdP's answer arrives as a cross-site POST, without the browser's SameSite
// cookies, and is only kept (under a handle the browser gets in a cookie of
// its own); the browser's same-site GET to acs/finish/ then brings that
// handle and the flow's binding cookie, and the answer is checked there.
// A verified assertion logs in exactly as any provider's answer does
// (signup, connect, the login pipeline). Every refusal lands on the
// reference's login-error page; the log says which check refused.

/** An answer not fetched by its browser within this long is dropped. */
export const ACS_POST_LIFETIME_MS = 5 * 60_000;
/** More than any real SAMLResponse (a few signed and encrypted kilobytes), little enough to store. */
export const MAX_SAML_RESPONSE = 256 * 1024;

/** The SAML app of an organization slug (its client_id). */
export function samlProviderOf(deps: Deps, organization: string): SamlProvider | null {
  const app = deps.config.social.apps.find((a) => a.type === 'saml' && a.clientId === organization);
  const provider = app ? deps.social.get(app.id, app.clientId) : undefined;
  return provider && isSamlProvider(provider) ? provider : null;
}

export interface AcsPost {
  organization: string;
  samlResponse: string | undefined;
  relayState: string | undefined;
}

/** The first leg: keeps the posted answer; answers the handle for the browser's cookie, or null when there is nothing to keep. */
export async function keepAcsPost(deps: Deps, ctx: RequestContext, post: AcsPost): Promise<string | null> {
  if (!samlProviderOf(deps, post.organization) || !post.samlResponse || post.samlResponse.length > MAX_SAML_RESPONSE) return null;
  const limit = await deps.limiter.consume('login', { ip: ctx.ip });
  if (!limit.ok) return null;
  const handle = randomKey(24);
  const relayState = post.relayState ? post.relayState.slice(0, 2048) : null;
  await insertAcsPost(deps.db, hashSecret(handle), { organization: post.organization, samlResponse: post.samlResponse, relayState }, ctx.now + ACS_POST_LIFETIME_MS);
  return handle;
}

export interface AcsFinish {
  organization: string;
  /** The handle cookie of the first leg. */
  handle: string | undefined;
  /** The redirect flow's binding cookie. */
  binding: string | undefined;
  /** This service's origin as the browser reached it: the ACS URL the answer must name. */
  origin: string;
  host: string;
}

export async function finishAcs(deps: Deps, ctx: RequestContext, request: AcsFinish): Promise<Outcome> {
  const failed: Outcome = { kind: 'redirect', location: loginErrorUrl(deps.config, 'login') };
  const provider = samlProviderOf(deps, request.organization);
  const post = provider && request.handle ? await takeAcsPost(deps.db, hashSecret(request.handle), ctx.now) : null;
  if (!provider || !post || post.organization !== request.organization) return failed;

  let assertion;
  try {
    assertion = await provider.saml.verify(post.samlResponse, request.origin, ctx.now);
  } catch (error) {
    const code = error instanceof SamlRefused ? error.code : 'unavailable';
    deps.log.warn({ err: error, provider: provider.app.id, saml: code }, 'SAML response refused');
    return failed;
  }
  // One use per assertion, across instances: the same store as ID token ids.
  if (!(await recordTokenUse(deps.db, hashSecret(`saml\n${assertion.issuer}\n${assertion.id}`), assertion.usableUntil))) {
    deps.log.warn({ provider: provider.app.id, saml: 'replayed' }, 'SAML response refused');
    return failed;
  }

  let process: Process = 'login';
  let callbackUrl: string;
  if (assertion.inResponseTo !== null) {
    // Solicited: the request it answers is a flow of this browser, for this app.
    const state = stateOfRequestId(assertion.inResponseTo);
    const flow = state && request.binding ? await takeState(deps.db, hashSecret(state), hashSecret(request.binding), ctx.now) : null;
    if (!flow || flow.provider !== provider.app.id || flow.clientId !== provider.app.clientId) {
      deps.log.warn({ provider: provider.app.id, saml: 'in_response_to' }, 'SAML response refused');
      return failed;
    }
    process = flow.process as Process;
    callbackUrl = flow.callbackUrl;
    if (process === 'connect' && ctx.user?.id !== flow.userId) return back(callbackUrl, process, 'permission_denied');
  } else {
    // Unsolicited (IdP-initiated): nothing binds it to this browser, so only where the app allows it.
    if (provider.saml.settings.advanced.rejectIdpInitiatedSso) {
      deps.log.warn({ provider: provider.app.id, saml: 'idp_initiated' }, 'SAML response refused');
      return failed;
    }
    // A safe RelayState is where to go next, as the reference; else the frontend's provider callback page.
    const relayed = post.relayState ? safeCallbackUrl(post.relayState, request.host, frontendHosts(deps.config)) : null;
    callbackUrl = relayed ?? deps.config.frontendUrls.socialaccount_login_error;
  }

  let identity;
  try {
    identity = samlIdentity(provider.saml.settings, assertion);
  } catch (error) {
    deps.log.warn({ err: error, provider: provider.app.id, saml: 'no_subject' }, 'SAML response refused');
    return back(callbackUrl, process, 'unknown');
  }
  const login = { app: provider.app, identity: cleanIdentity(provider.app, identity), tokens: null };
  const outcome = await completeSocialLogin(deps, ctx, provider, login, process);
  // The session a SAML login made or holds at a stage keeps the IdP's subject, for a single logout from us later.
  if (process === 'login' && outcome.kind === 'auth' && outcome.session && assertion.nameId) {
    const subject = { organization: request.organization, origin: request.origin, nameId: assertion.nameId, nameIdFormat: assertion.nameIdFormat, sessionIndex: assertion.sessionIndex };
    await recordSamlSession(deps.db, outcome.session.id, subject);
  }
  return landing(outcome, process, (error?: string, auth?: AuthState) => back(callbackUrl, process, error, auth));
}

function back(callbackUrl: string, process: Process, error?: string, auth?: AuthState): Outcome {
  return { kind: 'redirect', location: error ? withQuery(callbackUrl, { error, error_process: process }) : callbackUrl, auth };
}

/** A redirect flow's state, as randomKey makes them. */
const STATE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * GET /accounts/saml/<org>/sso/?state=: the AuthnRequest of a redirect flow
 * for an IdP that takes the HTTP-POST binding, as a form for the browser to
 * post; null for an unknown slug, a malformed state or an IdP out of reach.
 * Nothing is looked up by the state: the IdP's answer to it is bound to the
 * browser that started the flow at acs/finish/, as for the redirect binding.
 */
export async function samlAuthnForm(deps: Deps, organization: string, state: string | undefined, origin: string): Promise<PostForm | null> {
  const provider = samlProviderOf(deps, organization);
  if (!provider || !state || !STATE.test(state)) return null;
  try {
    return await provider.saml.authnRequestForm(state, origin);
  } catch (error) {
    deps.log.warn({ err: error, provider: provider.app.id }, 'provider unavailable for the redirect flow');
    return null;
  }
}

/** GET /accounts/saml/<org>/metadata/: the SP's metadata for the origin the IdP's administrator reached, or null for an unknown slug. */
export async function samlMetadata(deps: Deps, organization: string, origin: string): Promise<string | null> {
  const provider = samlProviderOf(deps, organization);
  return provider ? provider.saml.metadata(origin) : null;
}
