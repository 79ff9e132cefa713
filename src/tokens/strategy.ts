import type { Config } from '../config/config.js';
import type { Session } from '../domain/session.js';
import type { User } from '../domain/user.js';
import type { MaybePromise } from '../kernel/maybe-promise.js';

// The token strategy of spec 5.3: how an app client's session is carried
// (session token) and which further tokens it gets (access, refresh).
// HEADLESS_TOKEN_STRATEGY picks the built-in session-token or JWT strategy,
// or a module exporting a factory `(ctx: StrategyContext) => TokenStrategy`.

/** A live session with its user, and the raw key that names it. */
export interface LiveSession {
  session: Session;
  /** The session's user, or null for an anonymous session (pending flow). */
  user: User | null;
  /** The raw session key; only its hash is stored. */
  sessionKey: string;
}

/** The session a token is issued for: always an authenticated one. */
export interface TokenSubject {
  sessionKey: string;
  session: Session;
  user: User;
}

export interface TokenPair {
  access_token: string;
  refresh_token?: string;
}

/** What `createAccessTokenPayload` puts in `meta`: `access_token` plus the optional extras the API carries. */
export interface AccessTokenPayload {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
}

export interface TokenStrategy {
  /** The session token given to the app in meta.session_token for a session key. */
  createSessionToken(input: { sessionKey: string; session: Session }): string | Promise<string>;
  /** The live session an X-Session-Token names, or null (the app gets 410); a promise only when it must wait. */
  lookupSession(sessionToken: string): MaybePromise<LiveSession | null>;
  /** Optional: an access token for an authenticated session; absent means none. */
  createAccessToken?(subject: TokenSubject): Promise<string | null>;
  /** The tokens put in meta when a session becomes authenticated, or null for none. */
  createAccessTokenPayload(subject: TokenSubject): Promise<AccessTokenPayload | null>;
  /** A new pair for a refresh token, or null when it is not (or no longer) valid. `client`: who presented it, for the audit trail. */
  refreshToken(refreshToken: string, client?: { ip: string; userAgent: string }): Promise<TokenPair | null>;
  /**
   * Optional, beyond the five operations: resolves the access token of an
   * `Authorization: <scheme> <token>` header. 'gone' means a genuine token
   * whose session no longer exists (answered 410 like a stale session token);
   * null means the token is not acceptable (401). It runs on every request
   * that carries such a header: a strategy may answer a token it has seen
   * before without a promise.
   */
  authenticate?(accessToken: string): MaybePromise<LiveSession | 'gone' | null>;
  /** Optional: the public keys resource servers verify access tokens with. */
  jwks?(): { keys: Array<Record<string, unknown>> } | null;
}

export interface JwtStrategyOptions {
  /** Extra access-token claims; the reserved ones (iat, exp, sid, jti, token_use, sub) always win. */
  claims?(subject: TokenSubject): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** What a custom strategy module's factory receives. */
export interface StrategyContext {
  config: Config;
  /** The server's clock, in milliseconds. */
  now(): number;
  /** The live session with this raw key, or null when it is gone or expired. */
  findSession(sessionKey: string): Promise<LiveSession | null>;
  /** The built-in strategies, to delegate to or extend. */
  builtins: {
    sessionToken(): TokenStrategy;
    /** Uses the HEADLESS_JWT_* settings; throws when they do not allow signing. */
    jwt(options?: JwtStrategyOptions): TokenStrategy;
  };
}

export type StrategyFactory = (ctx: StrategyContext) => TokenStrategy;
