import { sqliteDataVersion, type Conn } from './db.js';
import { prepared } from './prepared.js';
import { hashSecret } from '../security/secrets.js';
import type { AuthMethod, PendingFlow, Session } from '../domain/session.js';
import type { User } from '../domain/user.js';
import { toUser } from './users.js';
import type { MaybePromise } from '../maybe-promise.js';

type SessionRow = {
  id: number;
  user_id: number | null;
  methods: string;
  flow: string | null;
  flow_attempts: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string;
  user_agent: string;
};

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    userId: row.user_id,
    methods: JSON.parse(row.methods) as AuthMethod[],
    flow: row.flow === null ? null : (JSON.parse(row.flow) as PendingFlow),
    flowAttempts: row.flow_attempts,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

/** The session lookup's query (exported for the scale bench, which times it in PostgreSQL). */
export function liveSessionQuery(conn: Conn, keyHash: string, now: number) {
  return conn
    .selectFrom('sessions as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('email_addresses as e', (j) => j.onRef('e.user_id', '=', 'u.id').on('e.is_primary', '=', 1))
    .select([
      's.id',
      's.user_id',
      's.methods',
      's.flow',
      's.flow_attempts',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      's.ip',
      's.user_agent',
      'u.username',
      'u.password_hash',
      'u.is_active',
      'u.password_changed_at',
      'e.email',
      'e.verified',
    ])
    .where('s.key_hash', '=', keyHash)
    .where('s.expires_at', '>', now);
}

const liveSessionRows = prepared(liveSessionQuery);

export type FoundSession = { session: Session; user: User | null; sessionKey: string };

/**
 * The request hot path: one indexed query (by the key's hash) returns the
 * live session with its user and primary address. Expired sessions are
 * treated as absent. A snapshot hit (below) answers without a promise.
 */
export function findLiveSession(conn: Conn, sessionKey: string, now: number): MaybePromise<FoundSession | null> {
  const version = sqliteDataVersion(conn);
  const cached = version === undefined ? undefined : snapshotsOf(conn).get(sessionKey);
  if (cached && cached.version === version && cached.found.session.expiresAt > now) return cached.found;
  return readLiveSession(conn, sessionKey, now, version);
}

async function readLiveSession(conn: Conn, sessionKey: string, now: number, version: number | undefined): Promise<FoundSession | null> {
  const [row] = await liveSessionRows(conn, hashSecret(sessionKey), now);
  if (!row) return null;
  const session = toSession(row);
  const user =
    row.user_id === null || row.is_active === null || row.password_changed_at === null
      ? null
      : toUser({
          id: row.user_id,
          username: row.username,
          password_hash: row.password_hash,
          is_active: row.is_active,
          password_changed_at: row.password_changed_at,
          email: row.email,
          verified: row.verified,
        });
  const found = { session, user, sessionKey };
  if (version !== undefined) remember(snapshotsOf(conn), sessionKey, { version, found });
  return found;
}

// On SQLite a session read is kept with the database's data_version and
// reused only while no connection anywhere has committed since: exact, not
// a time-based cache, and it spares the hash and the join on read-mostly
// traffic. Keyed by the raw key, which this process holds anyway while it
// serves the request; nothing here reaches the disk.
const SNAPSHOT_LIMIT = 10_000;
type Snapshot = { version: number; found: FoundSession };
const snapshotsByDb = new WeakMap<object, Map<string, Snapshot>>();

function snapshotsOf(conn: Conn): Map<string, Snapshot> {
  let snapshots = snapshotsByDb.get(conn);
  if (!snapshots) snapshotsByDb.set(conn, (snapshots = new Map()));
  return snapshots;
}

function remember(snapshots: Map<string, Snapshot>, sessionKey: string, entry: Snapshot): void {
  snapshots.delete(sessionKey);
  if (snapshots.size >= SNAPSHOT_LIMIT) snapshots.delete(snapshots.keys().next().value!);
  snapshots.set(sessionKey, entry);
}

export interface NewSession {
  keyHash: string;
  userId: number | null;
  methods: AuthMethod[];
  flow: PendingFlow | null;
  now: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
}

const insertSessionRow = prepared(
  (conn: Conn, keyHash: string, userId: number | null, methods: string, flow: string | null, now: number, expiresAt: number, ip: string, userAgent: string) =>
    conn
      .insertInto('sessions')
      .values({ key_hash: keyHash, user_id: userId, methods, flow, flow_attempts: 0, created_at: now, last_seen_at: now, expires_at: expiresAt, ip, user_agent: userAgent })
      .returning('id'),
);

export async function insertSession(conn: Conn, input: NewSession): Promise<Session> {
  const flow = input.flow === null ? null : JSON.stringify(input.flow);
  const [row] = await insertSessionRow(conn, input.keyHash, input.userId, JSON.stringify(input.methods), flow, input.now, input.expiresAt, input.ip, input.userAgent);
  // Built from what was written: reading the row back would only parse the
  // JSON just serialised.
  return {
    id: row!.id,
    userId: input.userId,
    methods: input.methods,
    flow: input.flow,
    flowAttempts: 0,
    createdAt: input.now,
    lastSeenAt: input.now,
    expiresAt: input.expiresAt,
    ip: input.ip,
    userAgent: input.userAgent,
  };
}

/**
 * Writes the authentication state. With `expectFlow`, the write only happens
 * if the session still holds exactly that pending flow, so two concurrent
 * completions of one flow cannot both succeed. Returns whether it was written.
 */
export async function updateSessionState(
  conn: Conn,
  id: number,
  state: { userId: number | null; methods: AuthMethod[]; flow: PendingFlow | null; flowAttempts?: number; keyHash?: string; expiresAt?: number },
  expectFlow?: PendingFlow | null,
): Promise<boolean> {
  let query = conn
    .updateTable('sessions')
    .set({
      user_id: state.userId,
      methods: JSON.stringify(state.methods),
      flow: state.flow === null ? null : JSON.stringify(state.flow),
      ...(state.flowAttempts !== undefined ? { flow_attempts: state.flowAttempts } : {}),
      ...(state.keyHash ? { key_hash: state.keyHash } : {}),
      ...(state.expiresAt ? { expires_at: state.expiresAt } : {}),
    })
    .where('id', '=', id);
  if (expectFlow !== undefined) {
    query = expectFlow === null ? query.where('flow', 'is', null) : query.where('flow', '=', JSON.stringify(expectFlow));
  }
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Replaces the pending flow's data without resetting its attempt count. */
export async function replaceFlow(conn: Conn, id: number, flow: PendingFlow, expectFlow: PendingFlow): Promise<boolean> {
  const result = await conn
    .updateTable('sessions')
    .set({ flow: JSON.stringify(flow) })
    .where('id', '=', id)
    .where('flow', '=', JSON.stringify(expectFlow))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

const touchSessionRow = prepared((conn: Conn, id: number, now: number, expiresAt: number) =>
  conn.updateTable('sessions').set({ last_seen_at: now, expires_at: expiresAt }).where('id', '=', id),
);

export async function touchSession(conn: Conn, id: number, now: number, expiresAt: number): Promise<void> {
  await touchSessionRow(conn, id, now, expiresAt);
}

/** USERSESSIONS_TRACK_ACTIVITY: a touch that also records where the session was used from. */
export async function touchSessionActivity(conn: Conn, id: number, now: number, expiresAt: number, client: { ip: string; userAgent: string }): Promise<void> {
  await conn.updateTable('sessions').set({ last_seen_at: now, expires_at: expiresAt, ip: client.ip, user_agent: client.userAgent }).where('id', '=', id).execute();
}

export async function deleteSession(conn: Conn, id: number): Promise<void> {
  await conn.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Ends every session of a user, optionally keeping one (the caller's). */
export async function deleteUserSessions(conn: Conn, userId: number, keepId: number | null): Promise<void> {
  let query = conn.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId !== null) query = query.where('id', '!=', keepId);
  await query.execute();
}

export async function deleteExpiredSessions(conn: Conn, now: number): Promise<number> {
  const result = await conn.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Takes one attempt at the pending flow's code before the code is checked,
 * answering which attempt this was (1-based), or null when the budget was
 * already spent. The conditional increment is atomic, so a burst of parallel
 * guesses spends at most `max`, and the caller that spends the last attempt
 * knows to drop the flow.
 */
export async function takeFlowAttempt(conn: Conn, id: number, max: number): Promise<number | null> {
  const row = await conn
    .updateTable('sessions')
    .set((eb) => ({ flow_attempts: eb('flow_attempts', '+', 1) }))
    .where('id', '=', id)
    .where('flow', 'is not', null)
    .where('flow_attempts', '<', max)
    .returning('flow_attempts')
    .executeTakeFirst();
  return row ? row.flow_attempts : null;
}

/** Gives back an attempt a correct answer reserved: only wrong answers spend the budget. */
export async function refundFlowAttempt(conn: Conn, id: number): Promise<void> {
  await conn
    .updateTable('sessions')
    .set((eb) => ({ flow_attempts: eb('flow_attempts', '-', 1) }))
    .where('id', '=', id)
    .where('flow_attempts', '>', 0)
    .execute();
}

/** The user's live sessions, oldest first. */
export async function listUserSessions(conn: Conn, userId: number, now: number): Promise<Session[]> {
  const rows = await conn
    .selectFrom('sessions')
    .select(['id', 'user_id', 'methods', 'flow', 'flow_attempts', 'created_at', 'last_seen_at', 'expires_at', 'ip', 'user_agent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('id')
    .execute();
  return rows.map(toSession);
}

/** Ends the given sessions of a user; ids of other users' sessions are ignored. */
export async function deleteUserSessionsById(conn: Conn, userId: number, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await conn.deleteFrom('sessions').where('user_id', '=', userId).where('id', 'in', ids).execute();
}
