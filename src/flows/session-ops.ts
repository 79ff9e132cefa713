import type { Deps, RequestContext } from './context.js';
import type { AuthMethod, PendingFlow, Session } from '../domain/session.js';
import type { AuthState } from './outcome.js';
import { randomKey, sessionKeyDigest } from '../security/secrets.js';
import { deleteSession, insertSession, updateSessionState } from '../store/sessions.js';
import type { Conn } from '../store/db.js';
import type { Config } from '../config/config.js';
import { inTransaction } from '../store/all-or-nothing.js';
import { methodOf, recordEvent } from '../audit/recorder.js';

// Session transitions shared by the flows; the writes that end a login are
// login/session-write.ts.

export const nowSeconds = (ms: number): number => ms / 1000;

/** A session that begins now (a login, a pending flow) ends at this time unless used again. */
function expiry(deps: Deps, now: number): number {
  return expiryAfterUse(deps.config, now, now);
}

/**
 * A session lives SESSION_COOKIE_AGE past its latest use (sliding), but never
 * past SESSION_ABSOLUTE_LIFETIME from when its login began: a stolen cookie
 * or token kept busy still dies then.
 */
export function expiryAfterUse(config: Config, startedAt: number, now: number): number {
  const sliding = now + config.session.cookieAge * 1000;
  const absolute = config.session.absoluteLifetime;
  return absolute === 0 ? sliding : Math.min(sliding, startedAt + absolute * 1000);
}

/** When the session's login began (its first method), or, while anonymous, when it was made. */
export function sessionStartedAt(session: Session): number {
  const first = session.methods[0];
  return first ? first.at * 1000 : session.createdAt;
}

/** Stores a pending flow for an anonymous visitor, creating a session if needed. */
export async function startPendingFlow(deps: Deps, ctx: RequestContext, flow: PendingFlow, conn: Conn = deps.db): Promise<AuthState> {
  if (ctx.session) {
    const session: Session = { ...ctx.session, userId: null, methods: [], flow, flowAttempts: 0 };
    await updateSessionState(conn, session.id, { userId: null, methods: [], flow, flowAttempts: 0 });
    return { session, user: null };
  }
  const key = randomKey();
  const session = await insertSession(conn, {
    keyDigest: sessionKeyDigest(key),
    userId: null,
    methods: [],
    flow,
    now: ctx.now,
    expiresAt: expiry(deps, ctx.now),
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
  return { session, user: null, newSessionKey: key };
}

/** Adds a method to an authenticated session (reauthentication). */
export async function addMethod(deps: Deps, ctx: RequestContext, session: Session, method: AuthMethod): Promise<Session> {
  const methods = [...session.methods, method];
  await inTransaction(deps.db, async (tx) => {
    await updateSessionState(tx, session.id, { userId: session.userId, methods, flow: session.flow });
    const detail = method.method === 'mfa' ? { method: methodOf(method), authenticator: method.type } : { method: methodOf(method) };
    await recordEvent(deps, tx, ctx, 'reauthenticated', { userId: session.userId, detail });
  });
  return { ...session, methods };
}

/** Gives an authenticated session a new key, e.g. after a password change. */
export async function cycleKey(deps: Deps, conn: Conn, session: Session): Promise<string> {
  const key = randomKey();
  await updateSessionState(conn, session.id, { userId: session.userId, methods: session.methods, flow: session.flow, keyDigest: sessionKeyDigest(key) });
  return key;
}

export async function endSession(deps: Deps, ctx: RequestContext): Promise<AuthState> {
  const { session } = ctx;
  if (session) {
    await inTransaction(deps.db, async (tx) => {
      await deleteSession(tx, session.id);
      // Only a logged-in session's end is a logout; an abandoned pending flow is not an event.
      if (session.userId !== null) await recordEvent(deps, tx, ctx, 'logout', { userId: session.userId, endedSessions: [session.id] });
    });
  }
  return { session: null, user: null, sessionEnded: true };
}

/** Drops the pending flow (expired or out of attempts), keeping the session. */
export async function dropFlow(deps: Deps, session: Session): Promise<void> {
  await updateSessionState(deps.db, session.id, { userId: session.userId, methods: session.methods, flow: null, flowAttempts: 0 }, session.flow);
}

/** True when the session's user proved who they are within the reauthentication timeout. */
export function recentlyAuthenticated(deps: Deps, session: Session, now: number): boolean {
  const latest = Math.max(0, ...session.methods.map((m) => m.at));
  return nowSeconds(now) - latest <= deps.config.account.reauthenticationTimeout;
}
