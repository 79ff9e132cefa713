import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod, PendingFlow } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import type { AuthState } from '../outcome.js';
import type { Conn } from '../../store/db.js';
import { randomKey, sessionKeyDigest } from '../../security/secrets.js';
import { insertSession, updateSessionState } from '../../store/sessions.js';
import { recordLogin } from '../../store/users.js';
import { requestedLanguage } from '../language.js';
import { inTransaction } from '../../store/all-or-nothing.js';
import { loginDetail, recordEvent } from '../../audit/recorder.js';
import { expiryAfterUse, startPendingFlow } from '../session-ops.js';

// The two session writes a login ends in (pipeline.ts decides which): the
// session waits at a stage, or it is authenticated. An authenticated session
// always gets a fresh key (session fixation), keeping the row so it keeps its
// id. With `expectFlow` a write happens only while the session still holds
// that flow, so a stage cannot be passed twice; null when it lost that race.

/** The session waits at `flow`, anonymous; `newKey` for the stages after the first factor, so a half-finished login's key never becomes a full one's. */
export async function holdAt(
  deps: Deps,
  ctx: RequestContext,
  conn: Conn,
  flow: PendingFlow,
  opts: { newKey: boolean; expectFlow?: PendingFlow },
): Promise<AuthState | null> {
  if (opts.newKey) return writeSession(deps, ctx, conn, { userId: null, methods: [], flow }, opts.expectFlow);
  if (!ctx.session || !opts.expectFlow) return startPendingFlow(deps, ctx, flow, conn);
  const values = { userId: null, methods: [], flow, flowAttempts: 0 };
  const written = await updateSessionState(conn, ctx.session.id, values, opts.expectFlow);
  return written ? { session: { ...ctx.session, ...values }, user: null } : null;
}

/** Makes the session authenticated as `user` with `methods`, under a new key; `alongside` a code flow still pending (optional verification). */
export async function finishLogin(
  deps: Deps,
  ctx: RequestContext,
  conn: Conn,
  user: User,
  methods: AuthMethod[],
  opts: { expectFlow?: PendingFlow; alongside?: PendingFlow } = {},
): Promise<AuthState | null> {
  return inTransaction(conn, async (tx) => {
    const state = await writeSession(deps, ctx, tx, { userId: user.id, methods, flow: opts.alongside ?? null }, opts.expectFlow);
    if (!state) return null;
    const language = requestedLanguage(ctx);
    await recordLogin(tx, user.id, ctx.now, language);
    await recordEvent(deps, tx, ctx, 'login.succeeded', { userId: user.id, detail: loginDetail(methods) });
    return { ...state, user: language === null || language === user.language ? user : { ...user, language } };
  });
}

/** Writes the session's state with a new key (creating the session if there is none). */
async function writeSession(
  deps: Deps,
  ctx: RequestContext,
  conn: Conn,
  values: { userId: number | null; methods: AuthMethod[]; flow: PendingFlow | null },
  expectFlow: PendingFlow | undefined,
): Promise<AuthState | null> {
  const expiresAt = expiryAfterUse(deps.config, ctx.now, ctx.now);
  const key = randomKey();
  const keyDigest = sessionKeyDigest(key);
  if (ctx.session) {
    const written = await updateSessionState(conn, ctx.session.id, { ...values, flowAttempts: 0, keyDigest, expiresAt }, expectFlow);
    if (!written) return null;
    return { session: { ...ctx.session, ...values, flowAttempts: 0, expiresAt }, user: null, newSessionKey: key };
  }
  const session = await insertSession(conn, { keyDigest, ...values, now: ctx.now, expiresAt, ip: ctx.ip, userAgent: ctx.userAgent });
  return { session, user: null, newSessionKey: key };
}
