import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientKind, Config } from '../config/config.js';
import type { Deps } from '../flows/context.js';
import type { AuthState, Outcome } from '../flows/outcome.js';
import type { Session } from '../domain/session.js';
import { hasUsablePassword, type User } from '../domain/user.js';
import { applySessionChange } from './client-auth.js';
import { appTokenMeta } from './app-tokens.js';
import { sendErrors } from './messages.js';
import { accountView, socialFlows } from './social-views.js';
import { authenticatorView, setTrustCookie } from './mfa-views.js';
import { profileView, userObjectFields } from './profile-views.js';

// The one table from flow outcomes to statuses and envelopes.

/** Retry-After of a 503 service_unavailable: the database or Redis reconnects within a few seconds. */
const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

export function userView(config: Config, user: User) {
  const view = {
    id: user.id,
    // The reference's user_display: never the names, whatever HEADLESS_USER_FIELDS shows.
    display: user.username || user.email || `user ${user.id}`,
    ...(user.email ? { email: user.email } : {}),
    ...(user.username ? { username: user.username } : {}),
    has_usable_password: hasUsablePassword(user),
  };
  return config.profile.userFields.length === 0 ? view : { ...view, ...userObjectFields(config, user) };
}

/** The login stages (second factor, trust, passkey signup) expire with ACCOUNT_LOGIN_TIMEOUT. */
const LOGIN_STAGES = new Set(['mfa_authenticate', 'mfa_trust', 'mfa_signup_webauthn']);

/** The flows a client may take next, in the reference's order, the pending one marked. */
export function flowsFor(config: Config, session: Session | null, client: ClientKind, now: number) {
  const flows: Array<{ id: string; is_pending?: boolean; types?: string[] }> = config.social.only ? [] : [{ id: 'login' }];
  if (config.account.loginByCode.enabled) flows.push({ id: 'login_by_code' });
  if (config.account.signupOpen && !config.social.only) flows.push({ id: 'signup' });
  flows.push(...socialFlows(config.social, client, session?.flow ?? null));
  if (config.mfa.enabled && config.mfa.passkeyLogin) flows.push({ id: 'mfa_login_webauthn' });
  const flow = session?.flow;
  const pending = flow && LOGIN_STAGES.has(flow.id) && 'expiresAt' in flow && flow.expiresAt <= now ? null : flow;
  if (pending && pending.id !== 'password_reset_by_code') {
    const entry = pending.id === 'mfa_authenticate' ? { id: pending.id, is_pending: true, types: pending.types } : { id: pending.id, is_pending: true };
    const existing = flows.find((f) => f.id === pending.id);
    if (existing) Object.assign(existing, entry);
    else flows.push(entry);
  }
  // The reference lists this one always when it is on, pending or not.
  if (config.account.passwordReset.byCode && !config.social.only) flows.push({ id: 'password_reset_by_code', is_pending: pending?.id === 'password_reset_by_code' });
  return flows;
}

function authBody(deps: Deps, request: FastifyRequest, state: AuthState) {
  const client = request.auth.client;
  const tokenMeta = client === 'app' && state.newSessionKey ? { session_token: state.newSessionKey } : {};
  if (state.user && state.session?.userId === state.user.id) {
    return {
      status: 200,
      data: { user: userView(deps.config, state.user), methods: state.session.methods },
      meta: { is_authenticated: true, ...tokenMeta, ...state.tokens },
    };
  }
  // An app that sent a token we no longer know is told to drop it (410),
  // unless this very request gave it a new one.
  const gone = client === 'app' && request.auth.staleToken && !state.newSessionKey;
  return {
    status: gone ? 410 : 401,
    data: { flows: flowsFor(deps.config, state.session, client, deps.clock.now()) },
    meta: { is_authenticated: gone ? null : false, ...tokenMeta, ...(state.logoutRedirectUrl ? { logout_redirect_url: state.logoutRedirectUrl } : {}) },
  };
}

/**
 * Reads of the state as the request found it (GET, nothing changed) answer
 * with JSON kept from an earlier answer, as the route's serializer made it:
 * the same session and user objects (a session snapshot, a verified access
 * token's) give the same bytes, and an anonymous caller's answer depends on
 * the settings alone. The hottest route then neither builds nor serializes
 * its answer. Keyed by the objects themselves, so an entry goes with them.
 */
const signedInAnswers = new WeakMap<Session, { user: User; client: ClientKind; json: string }>();
const anonymousAnswers = new WeakMap<Deps, Map<string, string>>();

const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer for `state` as the route's serializer for `status` writes it. */
function serializedAuth(deps: Deps, request: FastifyRequest, reply: FastifyReply, state: AuthState, status: number): string {
  return reply.code(status).serialize(authBody(deps, request, state)) as string;
}

function keptAnswer(deps: Deps, request: FastifyRequest, reply: FastifyReply, state: AuthState): FastifyReply | null {
  const { auth } = request;
  const { session, user } = state;
  if (request.method !== 'GET' || session !== auth.session || user !== auth.user) return null;
  if (state.newSessionKey || state.sessionEnded || state.tokens || state.trustBrowser) return null;
  if (session && user && session.userId === user.id) {
    let kept = signedInAnswers.get(session);
    if (kept?.user !== user || kept.client !== auth.client) signedInAnswers.set(session, (kept = { user, client: auth.client, json: serializedAuth(deps, request, reply, state, 200) }));
    return reply.code(200).type(JSON_TYPE).send(kept.json);
  }
  // With a session, an anonymous answer lists its pending flow, whose expiry depends on the time.
  if (session) return null;
  const gone = auth.client === 'app' && auth.staleToken;
  const key = `${auth.client}${gone ? ' gone' : ''}`;
  let answers = anonymousAnswers.get(deps);
  if (!answers) anonymousAnswers.set(deps, (answers = new Map()));
  let json = answers.get(key);
  if (json === undefined) answers.set(key, (json = serializedAuth(deps, request, reply, state, gone ? 410 : 401)));
  return reply.code(gone ? 410 : 401).type(JSON_TYPE).send(json);
}

export function send(deps: Deps, request: FastifyRequest, reply: FastifyReply, outcome: Outcome): FastifyReply | Promise<FastifyReply> {
  // Counted once the response is done (request-observer.ts), for logins and refreshes.
  request.outcome = outcome;
  switch (outcome.kind) {
    case 'auth': {
      const kept = keptAnswer(deps, request, reply, outcome);
      if (kept) return kept;
      applySessionChange(request, reply, deps, outcome);
      if (outcome.trustBrowser) setTrustCookie(reply, deps.config, outcome.trustBrowser);
      const body = authBody(deps, request, outcome);
      // App clients: the token strategy may add its tokens (app-tokens.ts).
      const withTokens = request.auth.client === 'app' ? appTokenMeta(deps, request, outcome, body.meta) : null;
      if (!withTokens) return reply.code(body.status).send(body);
      return withTokens.then((meta) => reply.code(body.status).send({ ...body, meta }));
    }
    case 'not_authenticated': {
      const body = authBody(deps, request, { session: request.auth.session, user: null });
      return reply.code(body.status).send(body);
    }
    case 'reauthentication_required': {
      const { session, user } = request.auth;
      const flows: Array<{ id: string; types?: string[] }> = [];
      if (user && hasUsablePassword(user)) flows.push({ id: 'reauthenticate' });
      if (outcome.mfaTypes.length > 0) flows.push({ id: 'mfa_reauthenticate', types: outcome.mfaTypes });
      return reply.code(401).send({
        status: 401,
        data: { user: user ? userView(deps.config, user) : undefined, methods: session?.methods ?? [], flows },
        meta: { is_authenticated: true },
      });
    }
    case 'stage_not_pending': {
      // The reference answers as for a visitor, with is_authenticated null.
      const body = authBody(deps, request, { session: outcome.session ?? request.auth.session, user: null });
      return reply.code(body.status).send({ ...body, meta: { ...body.meta, is_authenticated: null } });
    }
    case 'authenticators':
      return reply.code(200).send({ status: 200, data: outcome.authenticators.map((a) => authenticatorView(a)) });
    case 'authenticator':
      return reply.code(200).send({ status: 200, data: authenticatorView(outcome.authenticator), ...(outcome.meta ? { meta: outcome.meta } : {}) });
    case 'totp_setup':
      return reply.code(404).send({ status: 404, meta: { secret: outcome.secret, totp_url: outcome.totpUrl, qr_code_url: outcome.qrCode } });
    case 'not_found':
      return reply.code(404).send({ status: 404 });
    case 'webauthn_options': {
      const state = outcome.state;
      if (!state) return reply.code(200).send({ status: 200, data: outcome.options });
      // The challenge lives in a session made for it: browsers get its cookie, apps its token.
      applySessionChange(request, reply, deps, state);
      const meta = request.auth.client === 'app' && state.newSessionKey ? { session_token: state.newSessionKey } : null;
      const withToken = meta && appTokenMeta(deps, request, state, meta);
      if (!withToken) return reply.code(200).send({ status: 200, data: outcome.options, ...(meta ? { meta } : {}) });
      return withToken.then((m) => reply.code(200).send({ status: 200, data: outcome.options, meta: m }));
    }
    case 'verification_info':
      return reply.code(200).send({
        status: 200,
        data: { email: outcome.email, user: outcome.user ? userView(deps.config, outcome.user) : null },
        meta: { is_authenticating: outcome.isAuthenticating },
      });
    case 'ok':
      return reply.code(200).send({ status: 200 });
    case 'invalid':
      return sendErrors(deps.i18n, request, reply, 400, outcome.errors);
    case 'forbidden':
      return reply.code(403).send({ status: 403 });
    case 'conflict':
      return outcome.errors ? sendErrors(deps.i18n, request, reply, 409, outcome.errors) : reply.code(409).send({ status: 409 });
    case 'rate_limited':
      reply.header('retry-after', String(Math.max(1, Math.ceil(outcome.retryAfterSeconds))));
      return reply.code(429).send({ status: 429 });
    case 'unavailable':
      // A dependency that did not answer is usually back within seconds.
      if (outcome.errors.some((e) => e.code === 'service_unavailable')) reply.header('retry-after', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
      return sendErrors(deps.i18n, request, reply, 503, outcome.errors);
    case 'tokens':
      return reply.code(200).send({ status: 200, data: outcome.tokens });
    case 'phone_numbers': {
      const status = outcome.accepted ? 202 : 200;
      return reply.code(status).send({ status, data: outcome.phones.map((p) => ({ phone: p.phone, verified: p.verified })) });
    }
    case 'password_reset_info':
      return reply.code(200).send({ status: 200, data: { user: userView(deps.config, outcome.user) } });
    case 'email_addresses':
      return reply.code(200).send({ status: 200, data: outcome.addresses.map((a) => ({ email: a.email, primary: a.primary, verified: a.verified })) });
    case 'session_list':
      return reply.code(200).send({
        status: 200,
        data: outcome.sessions.map((s) => ({
          id: s.id,
          user_agent: s.userAgent,
          ip: s.ip,
          created_at: s.createdAt / 1000,
          // As the reference: only tracked activity is worth showing.
          ...(deps.config.userSessions.trackActivity ? { last_seen_at: s.lastSeenAt / 1000 } : {}),
          is_current: s.id === outcome.currentId,
        })),
      });
    case 'redirect':
      // Social login is a browser navigation: errors travel in the URL, never as JSON.
      if (outcome.auth) applySessionChange(request, reply, deps, outcome.auth);
      return reply.redirect(outcome.location, 302);
    case 'provider_signup_info':
      return reply.code(200).send({
        status: 200,
        data: { user: { ...outcome.user, has_usable_password: false }, account: accountView(outcome.account), email: outcome.emails },
      });
    case 'social_accounts':
      return reply.code(200).send({ status: 200, data: outcome.accounts.map(accountView) });
    case 'idp_consent':
      return reply.code(200).send({ status: 200, data: outcome.consent });
    case 'idp_consent_answered':
      return reply.code(200).send({ status: 200, data: { location: outcome.location } });
    case 'profile':
      return reply.code(200).send({ status: 200, data: profileView(deps.config, outcome.user) });
  }
}
