import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientKind } from '../config/config.js';
import type { Deps, RequestContext } from '../flows/context.js';
import type { Session } from '../domain/session.js';
import type { User } from '../domain/user.js';
import { findLiveSession, touchSession } from '../store/sessions.js';
import { csrfBinding, csrfTokenCurrent, csrfTokenValid, issueCsrfToken } from './csrf.js';
import { errorBody } from './messages.js';
import { resolveAppCaller } from './app-tokens.js';
import { headerValue } from './headers.js';
import { secretRing, signer } from '../security/signing.js';
import { andThen, isPromiseLike, type MaybePromise } from '../maybe-promise.js';
import type { LiveSession } from '../tokens/strategy.js';

/** What the http layer knows about the caller, resolved once per request. */
export interface RequestAuth {
  client: ClientKind;
  session: Session | null;
  user: User | null;
  /** The raw key of that session, as the caller presented it (cookie, token or an access token's sid). */
  sessionKey: string | undefined;
  /** An app client sent a session token that no longer resolves: answer 410. */
  staleToken: boolean;
  /** The session cookie the browser will hold after this response (for CSRF binding). */
  cookieAfter: string | undefined;
  /** The session's sliding expiry moved: a browser's cookie lifetime moves with it. */
  extended: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Refresh last-seen and the sliding expiry at most once a minute per session:
// reads stay reads on the hot path.
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Resolves the session for one client prefix: the `sessionid` cookie plus a
 * CSRF check for browsers, the X-Session-Token header for apps (which never
 * look at cookies and need no CSRF token).
 */
export function registerClientAuth(app: FastifyInstance, deps: Deps, client: ClientKind): void {
  const { session: sessionConfig } = deps.config;
  const csrf = signer(secretRing(deps.config), 'csrf');

  app.decorateRequest('auth', null as unknown as RequestAuth);

  // A callback hook: when the caller resolves from memory (a cached access
  // token, a session snapshot) the request goes on without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const cookie = client === 'browser' ? request.cookies[sessionConfig.cookieName] : undefined;
    request.auth = { client, session: null, user: null, sessionKey: undefined, staleToken: false, cookieAfter: cookie, extended: false };

    if (client === 'browser' && UNSAFE.has(request.method)) {
      if (!csrfTokenValid(csrf, csrfBinding(cookie), headerValue(request, 'x-csrftoken'))) {
        // Answered here: not calling done() ends the request's hook chain.
        reply.code(403).send(errorBody(403, [{ code: 'csrf_failed' }]));
        return;
      }
    }
    const pending = resolveCaller(request, cookie);
    if (isPromiseLike(pending)) pending.then(() => done(), done);
    else done();
  });

  /** Fills in request.auth: the browser's cookie session, or the app's token as the strategy resolves it. */
  function resolveCaller(request: FastifyRequest, cookie: string | undefined): MaybePromise<void> {
    const now = deps.clock.now();
    if (client === 'app') {
      return andThen(resolveAppCaller(deps, request), (caller) => {
        if (caller?.found) return adopt(request, caller.found, now);
        if (caller) request.auth.staleToken = caller.stale;
      });
    }
    if (!cookie) return;
    return andThen(findLiveSession(deps.db, cookie, now), (found) => {
      if (found) return adopt(request, found, now);
      request.auth.cookieAfter = undefined;
    });
  }

  function adopt(request: FastifyRequest, found: LiveSession, now: number): MaybePromise<void> {
    request.auth.session = found.session;
    request.auth.sessionKey = found.sessionKey;
    request.auth.user = found.session.userId !== null && found.user?.isActive ? found.user : null;
    if (now - found.session.lastSeenAt <= TOUCH_INTERVAL_MS) return;
    const expiresAt = now + sessionConfig.cookieAge * 1000;
    return touchSession(deps.db, found.session.id, now, expiresAt).then(() => {
      found.session.lastSeenAt = now;
      found.session.expiresAt = expiresAt;
      request.auth.extended = true;
    });
  }

  if (client === 'browser') {
    // Every browser response carries a CSRF token valid for the session the
    // browser will hold next; a token valid under the current key is kept,
    // not re-minted (one signed by a fallback key is replaced).
    app.addHook('onSend', async (request, reply) => {
      const auth = request.auth;
      if (!auth) return;
      if (auth.cookieAfter === undefined && request.cookies[sessionConfig.cookieName] !== undefined) {
        reply.clearCookie(sessionConfig.cookieName, { path: '/' });
      } else if (auth.extended && auth.cookieAfter === request.cookies[sessionConfig.cookieName]) {
        setSessionCookie(reply, deps, auth.cookieAfter!);
      }
      const binding = csrfBinding(auth.cookieAfter);
      const current = request.cookies[sessionConfig.csrfCookieName];
      const token = csrfTokenCurrent(csrf, binding, current) ? current! : issueCsrfToken(csrf, binding);
      reply.setCookie(sessionConfig.csrfCookieName, token, {
        path: '/',
        sameSite: sessionConfig.sameSite,
        secure: sessionConfig.cookieSecure,
        httpOnly: false,
        maxAge: 365 * 24 * 3600,
      });
    });
  }
}

function setSessionCookie(reply: FastifyReply, deps: Deps, key: string): void {
  const { session } = deps.config;
  reply.setCookie(session.cookieName, key, { path: '/', httpOnly: true, sameSite: session.sameSite, secure: session.cookieSecure, maxAge: session.cookieAge });
}

/** Puts a new session key where a browser keeps it (app clients get it in meta). */
export function applySessionChange(request: FastifyRequest, reply: FastifyReply, deps: Deps, change: { newSessionKey?: string; sessionEnded?: boolean }): void {
  if (request.auth.client !== 'browser') return;
  if (change.newSessionKey) {
    setSessionCookie(reply, deps, change.newSessionKey);
    request.auth.cookieAfter = change.newSessionKey;
  } else if (change.sessionEnded) {
    request.auth.cookieAfter = undefined;
  }
}

export function requestContext(request: FastifyRequest, deps: Deps): RequestContext {
  return {
    client: request.auth.client,
    ip: request.ip,
    userAgent: (request.headers['user-agent'] ?? '').slice(0, 512),
    now: deps.clock.now(),
    session: request.auth.session,
    user: request.auth.user,
    mfaTrustCookie: request.auth.client === 'browser' ? request.cookies[deps.config.mfa.trust.cookie.name] : undefined,
  };
}
