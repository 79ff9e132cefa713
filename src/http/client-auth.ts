import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientKind } from '../config/config.js';
import type { Deps, RequestContext } from '../flows/context.js';
import { TOUCH_INTERVAL_MS, type Session } from '../domain/session.js';
import type { User } from '../domain/user.js';
import { findLiveSession, recordSessionUses, type SessionTouch } from '../store/sessions.js';
import { WriteBatcher } from '../store/write-batcher.js';
import { csrfBinding, csrfTokenCurrent, csrfTokenValid, issueCsrfToken } from './csrf.js';
import { sendErrors } from './messages.js';
import { resolveAppCaller } from './app-tokens.js';
import { headerValue } from './headers.js';
import { secretRing, signer } from '../security/signing.js';
import { randomKey } from '../security/secrets.js';
import { andThen, isPromiseLike, type MaybePromise } from '../kernel/maybe-promise.js';
import { expiryAfterUse, sessionStartedAt } from '../flows/session-ops.js';
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

/**
 * Where a browser route takes its CSRF token from: the X-CSRFToken header
 * (every JSON route), also the `csrfmiddlewaretoken` field of a form post
 * (the social redirect, a plain HTML form), or nowhere (a provider's
 * cross-site callback, which its state protects instead).
 */
export type CsrfSource = 'header' | 'form' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
  }
  interface FastifyContextConfig {
    csrf?: CsrfSource;
  }
}

/** The form field allauth's SPA posts the token in (Django's name). */
const CSRF_FORM_FIELD = 'csrfmiddlewaretoken';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Resolves the session for one client prefix: the `sessionid` cookie plus a
 * CSRF check for browsers, the X-Session-Token header for apps (which never
 * look at cookies and need no CSRF token).
 */
export function registerClientAuth(app: FastifyInstance, deps: Deps, client: ClientKind): void {
  const { session: sessionConfig } = deps.config;
  const { trackActivity } = deps.config.userSessions;
  const csrf = signer(secretRing(deps.config), 'csrf');
  const browserCookieName = `${sessionConfig.csrfCookieName}_binding`;
  const longCookie = { path: '/', sameSite: sessionConfig.sameSite, secure: sessionConfig.cookieSecure, maxAge: 365 * 24 * 3600 } as const;
  // Touches of sessions used at the same moment share one statement; a
  // request still waits for its own, so the cookie it gets matches the row.
  const touches = new WriteBatcher<number, SessionTouch>((batch) => recordSessionUses(deps.db, batch));
  app.addHook('onClose', async () => touches.close());

  app.decorateRequest('auth', null as unknown as RequestAuth);

  // A callback hook: when the caller resolves from memory (a cached access
  // token, a session snapshot) the request goes on without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const cookie = client === 'browser' ? request.cookies[sessionConfig.cookieName] : undefined;
    request.auth = { client, session: null, user: null, sessionKey: undefined, staleToken: false, cookieAfter: cookie, extended: false };

    // A form's token can only be read once the body is parsed (preValidation, below).
    if (client === 'browser' && UNSAFE.has(request.method) && (request.routeOptions.config.csrf ?? 'header') === 'header') {
      if (!csrfTokenValid(csrf, csrfBinding(cookie, request.cookies[browserCookieName]), headerValue(request, 'x-csrftoken'))) {
        // Answered here: not calling done() ends the request's hook chain.
        sendErrors(deps.i18n, request, reply, 403, [{ code: 'csrf_failed' }]);
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

  if (client === 'browser') {
    app.addHook('preValidation', (request, reply, done) => {
      if (request.routeOptions.config.csrf !== 'form' || !UNSAFE.has(request.method)) return done();
      const field = (request.body as Record<string, unknown> | undefined)?.[CSRF_FORM_FIELD];
      const token = headerValue(request, 'x-csrftoken') ?? (typeof field === 'string' ? field : undefined);
      if (csrfTokenValid(csrf, csrfBinding(request.cookies[sessionConfig.cookieName], request.cookies[browserCookieName]), token)) return done();
      sendErrors(deps.i18n, request, reply, 403, [{ code: 'csrf_failed' }]);
    });
  }

  function adopt(request: FastifyRequest, found: LiveSession, now: number): MaybePromise<void> {
    const { session } = found;
    request.auth.session = session;
    request.auth.sessionKey = found.sessionKey;
    request.auth.user = session.userId !== null && found.user?.isActive ? found.user : null;
    // USERSESSIONS_TRACK_ACTIVITY: a logged-in session follows its client's
    // address and user agent at once, as the reference's middleware does.
    const client = trackActivity && request.auth.user ? { ip: request.ip, userAgent: userAgentOf(request) } : null;
    const moved = client !== null && (client.ip !== session.ip || client.userAgent !== session.userAgent);
    if (!moved && now - session.lastSeenAt <= TOUCH_INTERVAL_MS) return;
    const expiresAt = expiryAfterUse(deps.config, sessionStartedAt(session), now);
    return touches.add(session.id, client ? { now, expiresAt, client } : { now, expiresAt }).then(() => {
      session.lastSeenAt = now;
      session.expiresAt = expiresAt;
      if (client) Object.assign(session, client);
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
        setSessionCookie(reply, deps, auth.cookieAfter!, auth.session?.expiresAt);
      }
      // A visitor without a session gets a browser cookie of its own to bind its token to.
      let browserCookie = request.cookies[browserCookieName];
      if (auth.cookieAfter === undefined && !browserCookie) {
        browserCookie = randomKey();
        reply.setCookie(browserCookieName, browserCookie, { ...longCookie, httpOnly: true });
      }
      const binding = csrfBinding(auth.cookieAfter, browserCookie)!;
      const current = request.cookies[sessionConfig.csrfCookieName];
      const token = csrfTokenCurrent(csrf, binding, current) ? current! : issueCsrfToken(csrf, binding);
      reply.setCookie(sessionConfig.csrfCookieName, token, { ...longCookie, httpOnly: false });
    });
  }
}

/** The cookie lives as long as the session it names (SESSION_COOKIE_AGE when that is not known). */
function setSessionCookie(reply: FastifyReply, deps: Deps, key: string, expiresAt: number | undefined): void {
  const { session } = deps.config;
  const maxAge = expiresAt === undefined ? session.cookieAge : Math.max(0, Math.ceil((expiresAt - deps.clock.now()) / 1000));
  reply.setCookie(session.cookieName, key, { path: '/', httpOnly: true, sameSite: session.sameSite, secure: session.cookieSecure, maxAge });
}

/** Puts a new session key where a browser keeps it (app clients get it in meta). */
export function applySessionChange(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: Deps,
  change: { newSessionKey?: string; sessionEnded?: boolean; session?: Session | null },
): void {
  if (request.auth.client !== 'browser') return;
  if (change.newSessionKey) {
    setSessionCookie(reply, deps, change.newSessionKey, change.session?.expiresAt);
    request.auth.cookieAfter = change.newSessionKey;
  } else if (change.sessionEnded) {
    request.auth.cookieAfter = undefined;
  }
}

/** The client's user agent as sessions and audit events store it (512 characters at most). */
export function userAgentOf(request: FastifyRequest): string {
  return (request.headers['user-agent'] ?? '').slice(0, 512);
}

export function requestContext(request: FastifyRequest, deps: Deps): RequestContext {
  const choice = deps.i18n.choose(request.headers['accept-language']);
  return {
    client: request.auth.client,
    ip: request.ip,
    userAgent: userAgentOf(request),
    language: choice.language,
    languageAsked: choice.named,
    now: deps.clock.now(),
    session: request.auth.session,
    user: request.auth.user,
    mfaTrustCookie: request.auth.client === 'browser' ? request.cookies[deps.config.mfa.trust.cookie.name] : undefined,
  };
}
