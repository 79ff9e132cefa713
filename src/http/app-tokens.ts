import type { FastifyRequest } from 'fastify';
import type { Deps } from '../flows/context.js';
import type { AuthState } from '../flows/outcome.js';
import type { LiveSession } from '../tokens/strategy.js';
import { andThen, type MaybePromise } from '../kernel/maybe-promise.js';
import { headerValue } from './headers.js';

// The app client's side of the token strategy: which session a request's
// X-Session-Token or `Authorization: <scheme> <token>` names, and the tokens
// a response hands out when a session becomes authenticated.

/** The credential of `Authorization: <scheme> <token>` when the scheme word is ours (case-insensitive, RFC 9110). */
export function bearerToken(value: string | undefined, scheme: string): string | undefined {
  if (!value) return undefined;
  // Plain string scanning, no regular expression: this runs on every request
  // and tokens are long.
  const trimmed = value.trim();
  const space = trimmed.indexOf(' ');
  if (space !== scheme.length) return undefined;
  if (!trimmed.startsWith(scheme) && trimmed.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return undefined;
  const token = trimmed.slice(space + 1).trimStart();
  // A token is one word (RFC 6750's b64token); header values hold no CR or LF.
  return token !== '' && !token.includes(' ') && !token.includes('\t') ? token : undefined;
}

export interface AppCaller {
  found: LiveSession | null;
  /** The credential once was good and its session is gone (answered 410). */
  stale: boolean;
}

/**
 * The app caller's session: X-Session-Token first, as in the reference, then
 * an access token. Null when the request carries neither. Tokens are read
 * from headers only, never from the query string (spec 5.2). Synchronous
 * when the strategy answers from memory.
 */
export function resolveAppCaller(deps: Deps, request: FastifyRequest): MaybePromise<AppCaller | null> {
  const sessionToken = headerValue(request, 'x-session-token');
  if (sessionToken) return andThen(deps.tokens.lookupSession(sessionToken), (found) => ({ found, stale: !found }));
  const accessToken = deps.tokens.authenticate ? bearerToken(headerValue(request, 'authorization'), deps.config.tokens.jwt.authorizationHeaderScheme) : undefined;
  if (accessToken === undefined) return null;
  return andThen(deps.tokens.authenticate!(accessToken), accessCaller);
}

function accessCaller(result: LiveSession | 'gone' | null): AppCaller {
  if (result === null || result === 'gone') return { found: null, stale: result === 'gone' };
  return { found: result, stale: false };
}

/**
 * The strategy's additions to an app response's meta, or null when there are
 * none: the session token in the strategy's form, and access (and refresh)
 * tokens whenever this request authenticated the session (login, signup, code
 * or email confirmation, a completed second factor) or gave an authenticated
 * session a new key. A plain lookup adds nothing and costs nothing.
 */
export function appTokenMeta(deps: Deps, request: FastifyRequest, state: AuthState, meta: Record<string, unknown>): Promise<Record<string, unknown>> | null {
  if (!state.newSessionKey && request.auth.user?.id === state.user?.id) return null;
  return addTokens(deps, request, state, meta);
}

async function addTokens(deps: Deps, request: FastifyRequest, state: AuthState, original: Record<string, unknown>): Promise<Record<string, unknown>> {
  const meta = { ...original };
  if (state.newSessionKey && state.session && meta.session_token === state.newSessionKey) {
    meta.session_token = await deps.tokens.createSessionToken({ sessionKey: state.newSessionKey, session: state.session });
  }
  const { session, user } = state;
  const authenticated = meta.is_authenticated === true && user !== null && session !== null && session.userId === user.id;
  const before = request.auth.user;
  const changed = !before || before.id !== user?.id || state.newSessionKey !== undefined;
  const sessionKey = state.newSessionKey ?? request.auth.sessionKey;
  if (authenticated && changed && !state.tokens && sessionKey) {
    const issued = await deps.tokens.createAccessTokenPayload({ sessionKey, session: session!, user: user! });
    // The strategy adds fields; it never replaces the ones the flow set.
    for (const [name, value] of Object.entries(issued ?? {})) if (!(name in meta)) meta[name] = value;
  }
  return meta;
}
