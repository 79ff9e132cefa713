import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import type { Outcome } from '../outcome.js';
import { hashSecret, randomKey } from '../../security/secrets.js';
import { insertState } from '../../store/social-states.js';
import { callbackPath } from '../../social/apps.js';
import { pkcePair } from '../../social/kit/pkce.js';
import type { StartedRedirect } from '../../social/provider-type.js';
import { frontendHosts, loginErrorUrl, safeCallbackUrl, withQuery } from './navigation.js';

// POST /auth/provider/redirect: the start of the redirect flow. The browser
// leaves for the provider with a state that is random, single use, expiring
// and bound to this browser (by a cookie the http layer keeps), with a PKCE
// S256 challenge and, to OpenID Connect providers, a nonce the ID token must
// carry back. Every failure sends the browser on as well, to the frontend
// with the reference's error parameters.

/** A redirect flow left unfinished this long is refused at the callback. */
export const STATE_LIFETIME_MS = 15 * 60_000;

/** POST /auth/provider/redirect's form (the CSRF token field is checked before the flow). */
export const RedirectInput = Type.Object({
  provider: Type.Optional(Type.String({ description: 'The provider id (see /config).' })),
  callback_url: Type.Optional(Type.String({ description: 'Where the browser returns after the provider: a path here, or a URL on this host or the frontend\'s.' })),
  process: Type.Optional(Type.String({ description: '`login`, or `connect` (to the logged-in account).' })),
  csrfmiddlewaretoken: Type.Optional(Type.String({ description: 'The csrftoken cookie\'s value (or send X-CSRFToken).' })),
});
export type RedirectInput = Static<typeof RedirectInput>;

export interface Browser {
  /** The secret of the browser's binding cookie (the http layer sets it). */
  binding: string;
  /** This service's origin as the browser reached it, for the redirect_uri. */
  origin: string;
  /** The Host the browser asked for: a callback_url there is safe. */
  host: string;
}

export function stateSealContext(stateHash: string): string {
  return `socialstate:${stateHash}`;
}

export function nonceSealContext(stateHash: string): string {
  return `socialstate:${stateHash}:nonce`;
}

export function secretSealContext(stateHash: string): string {
  return `socialstate:${stateHash}:secret`;
}

export async function startProviderRedirect(deps: Deps, ctx: RequestContext, input: RedirectInput, browser: Browser): Promise<Outcome> {
  const { config } = deps;
  const process = input.process ?? '';
  // Normalised once: the form checked is the form stored and sent on every landing.
  const callbackUrl = safeCallbackUrl(input.callback_url ?? '', browser.host, frontendHosts(config));
  const provider = input.provider ? deps.social.get(input.provider) : undefined;
  if (!provider || !['login', 'connect'].includes(process) || callbackUrl === null) {
    return { kind: 'redirect', location: loginErrorUrl(config, 'login') };
  }
  const limit = await deps.limiter.consume('login', { ip: ctx.ip });
  if (!limit.ok) return { kind: 'redirect', location: withQuery(callbackUrl, { error: 'rate_limited', error_process: process }) };
  // Connecting needs someone to connect to; the reference finds out at the callback, this saves the trip.
  if (process === 'connect' && !ctx.user) {
    return { kind: 'redirect', location: withQuery(callbackUrl, { error: 'permission_denied', error_process: process }) };
  }

  const state = randomKey(24);
  const pkce = provider.app.common.pkce ? await pkcePair() : null;
  const nonce = provider.usesNonce ? randomKey(24) : null;
  const redirectUri = `${browser.origin}${callbackPath(provider.app, config.social.openIdConnectUrlPrefix)}`;
  let started: URL | StartedRedirect;
  try {
    started = await provider.authorizationUrl({ redirectUri, state, codeChallenge: pkce?.challenge ?? null, nonce });
  } catch (error) {
    deps.log.warn({ err: error, provider: provider.app.id }, 'provider unavailable for the redirect flow');
    return { kind: 'redirect', location: withQuery(callbackUrl, { error: 'unknown', error_process: process }) };
  }
  // OAuth 1.0a sends no state back: the flow is then found by the provider's request token, bound to this browser all the same.
  const { url: authorization, stateKey, secret } = started instanceof URL ? { url: started, stateKey: state, secret: null } : started;
  const stateHash = hashSecret(stateKey);
  await insertState(deps.db, {
    stateHash,
    bindingHash: hashSecret(browser.binding),
    provider: provider.app.id,
    clientId: provider.app.clientId,
    process,
    callbackUrl,
    redirectUri,
    codeVerifier: pkce ? deps.atRest.seal(pkce.verifier, stateSealContext(stateHash)) : null,
    nonce: nonce ? deps.atRest.seal(nonce, nonceSealContext(stateHash)) : null,
    secret: secret === null ? null : deps.atRest.seal(secret, secretSealContext(stateHash)),
    userId: process === 'connect' ? ctx.user!.id : null,
    postedUser: null,
    now: ctx.now,
    expiresAt: ctx.now + STATE_LIFETIME_MS,
  });
  return { kind: 'redirect', location: authorization.toString() };
}
