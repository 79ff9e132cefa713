import { sql } from 'kysely';
import { isPostgres, sqliteDataVersion, type Conn, type Db } from './db.js';
import { prepared } from './prepared.js';
import { LookupBatcher } from './lookup-batcher.js';
import { sessionKeyDigest } from '../security/secrets.js';
import { TOUCH_INTERVAL_MS, type AuthMethod, type PendingFlow, type Session } from '../domain/session.js';
import type { User } from '../domain/user.js';
import { toUser } from './users.js';
import type { MaybePromise } from '../kernel/maybe-promise.js';

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
export function liveSessionQuery(conn: Conn, keyDigest: Buffer, now: number) {
  return liveSessionSelect(conn).where('s.key_hash', '=', keyDigest).where('s.expires_at', '>', now);
}

/** The same for several sessions at once, each row with its key's hash (PostgreSQL's batches, below). */
function liveSessionsQuery(conn: Conn, keyDigests: Buffer[], now: number) {
  return liveSessionSelect(conn)
    .select('s.key_hash')
    .where('s.key_hash', '=', sql<Buffer>`any(${keyDigests})`)
    .where('s.expires_at', '>', now);
}

/** A live session with its user and the user's primary address. */
function liveSessionSelect(conn: Conn) {
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
      'u.language',
      'u.first_name',
      'u.last_name',
      'u.profile',
      'e.email',
      'e.verified',
    ]);
}

const liveSessionRows = prepared(liveSessionQuery);
const liveSessionsRows = prepared(liveSessionsQuery);
type LiveSessionRow = Awaited<ReturnType<typeof liveSessionRows>>[number];

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
  const batched = version === undefined && !conn.isTransaction ? lookupsOf(conn) : null;
  if (batched) return batched.get(sessionKey, now).then((row) => (row && row.expires_at > now ? foundOf(row, sessionKey) : null));
  return readLiveSession(conn, sessionKey, now, version);
}

// On PostgreSQL the lookups that one turn of the event loop makes share one
// query (`key_hash = any(...)`): under load, one round trip and one pass of
// the driver serve all the requests that turn read. A transaction's lookups
// stay in the transaction, and SQLite's are in-process reads already.
const lookups = new WeakMap<object, LookupBatcher<string, LiveSessionRow> | null>();

function lookupsOf(db: Conn): LookupBatcher<string, LiveSessionRow> | null {
  let batcher = lookups.get(db);
  if (batcher === undefined) {
    batcher = isPostgres(db as Db) ? new LookupBatcher((keys, now) => readLiveSessions(db, keys, now)) : null;
    lookups.set(db, batcher);
  }
  return batcher;
}

async function readLiveSessions(db: Conn, keys: string[], now: number): Promise<Map<string, LiveSessionRow>> {
  const digests = keys.map(sessionKeyDigest);
  const keyOf = new Map(digests.map((digest, i) => [digest.toString('hex'), keys[i]!]));
  const rows = await liveSessionsRows(db, digests, now);
  return new Map(rows.map((row) => [keyOf.get(row.key_hash.toString('hex'))!, row]));
}

async function readLiveSession(conn: Conn, sessionKey: string, now: number, version: number | undefined): Promise<FoundSession | null> {
  const [row] = await liveSessionRows(conn, sessionKeyDigest(sessionKey), now);
  if (!row) return null;
  const found = foundOf(row, sessionKey);
  // A session due for its touch is about to be written, which retires every
  // snapshot: keeping one would only hold memory (with many sessions each
  // used once, enough to grow the heap).
  if (version !== undefined && now - found.session.lastSeenAt <= TOUCH_INTERVAL_MS) remember(snapshotsOf(conn), sessionKey, { version, found });
  return found;
}

function foundOf(row: LiveSessionRow, sessionKey: string): FoundSession {
  const session = toSession(row);
  const user =
    row.user_id === null || row.is_active === null || row.password_changed_at === null || row.first_name === null || row.last_name === null || row.profile === null
      ? null
      : toUser({
          id: row.user_id,
          username: row.username,
          password_hash: row.password_hash,
          is_active: row.is_active,
          password_changed_at: row.password_changed_at,
          language: row.language,
          first_name: row.first_name,
          last_name: row.last_name,
          profile: row.profile,
          email: row.email,
          verified: row.verified,
        });
  return { session, user, sessionKey };
}

// On SQLite a session read is kept with the database's data_version and
// reused only while no connection anywhere has committed since: exact, not
// a time-based cache, and it spares the hash and the join on read-mostly
// traffic. Keyed by the raw key, which this process holds anyway while it
// serves the request; nothing here reaches the disk. Bounded at a thousand
// sessions (a session with its user is a kilobyte or two): the busiest ones
// stay, and any other is one indexed read on the reader connection away.
const SNAPSHOT_LIMIT = 1_000;
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
  /** sessionKeyDigest of the key. */
  keyDigest: Buffer;
  userId: number | null;
  methods: AuthMethod[];
  flow: PendingFlow | null;
  now: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
}

const insertSessionRow = prepared(
  (conn: Conn, keyDigest: Buffer, userId: number | null, methods: string, flow: string | null, now: number, expiresAt: number, ip: string, userAgent: string) =>
    conn
      .insertInto('sessions')
      .values({ key_hash: keyDigest, user_id: userId, methods, flow, flow_attempts: 0, created_at: now, last_seen_at: now, expires_at: expiresAt, ip, user_agent: userAgent })
      .returning('id'),
);

export async function insertSession(conn: Conn, input: NewSession): Promise<Session> {
  const flow = input.flow === null ? null : JSON.stringify(input.flow);
  const [row] = await insertSessionRow(conn, input.keyDigest, input.userId, JSON.stringify(input.methods), flow, input.now, input.expiresAt, input.ip, input.userAgent);
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
  state: { userId: number | null; methods: AuthMethod[]; flow: PendingFlow | null; flowAttempts?: number; keyDigest?: Buffer; expiresAt?: number },
  expectFlow?: PendingFlow | null,
): Promise<boolean> {
  let query = conn
    .updateTable('sessions')
    .set({
      user_id: state.userId,
      methods: JSON.stringify(state.methods),
      flow: state.flow === null ? null : JSON.stringify(state.flow),
      ...(state.flowAttempts !== undefined ? { flow_attempts: state.flowAttempts } : {}),
      ...(state.keyDigest ? { key_hash: state.keyDigest } : {}),
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

export interface SessionTouch {
  now: number;
  expiresAt: number;
  /** USERSESSIONS_TRACK_ACTIVITY: where the session was used from. */
  client?: { ip: string; userAgent: string };
}

/** Records the latest use of one session. */
export async function touchSession(conn: Conn, id: number, now: number, expiresAt: number): Promise<void> {
  await touchSessions(conn, new Map([[id, { now, expiresAt }]]));
}

/**
 * Records the latest use of many sessions in one statement (see
 * WriteBatcher). None of the columns it sets is indexed, so on PostgreSQL
 * the rows are updated in place (HOT, see migration 008). Each row's CASE
 * scans the batch, so batches stay small (WriteBatcher sends at 100).
 */
export async function touchSessions(conn: Conn, touches: Map<number, SessionTouch>): Promise<void> {
  const entries = [...touches];
  // CAST: PostgreSQL types a CASE of parameters as text otherwise.
  const caseOf = (column: string, value: (t: SessionTouch) => number, type: string) =>
    sql<number>`case id ${sql.join(
      entries.map(([id, t]) => sql`when ${id} then cast(${value(t)} as ${sql.raw(type)})`),
      sql` `,
    )} else ${sql.ref(column)} end`;
  const active = entries.filter(([, t]) => t.client);
  const activity = (column: string, value: (c: { ip: string; userAgent: string }) => string) =>
    active.length === 0
      ? sql.ref<string>(column)
      : sql<string>`case id ${sql.join(
          active.map(([id, t]) => sql`when ${id} then cast(${value(t.client!)} as varchar)`),
          sql` `,
        )} else ${sql.ref(column)} end`;
  await conn
    .updateTable('sessions')
    .set({
      last_seen_at: caseOf('last_seen_at', (t) => t.now, 'bigint'),
      expires_at: caseOf('expires_at', (t) => t.expiresAt, 'bigint'),
      ...(active.length ? { ip: activity('ip', (c) => c.ip), user_agent: activity('user_agent', (c) => c.userAgent) } : {}),
    })
    .where('id', 'in', entries.map(([id]) => id))
    .execute();
}

/**
 * The request path's touches, a batch at a time (see WriteBatcher). On
 * PostgreSQL they commit without waiting for the WAL to reach the disk: a
 * touch only moves a sliding expiry that is weeks long, so the few a crash
 * could lose cost nothing, where waiting on the disk would cost every request
 * that extends its session.
 */
export async function recordSessionUses(db: Db, touches: Map<number, SessionTouch>): Promise<void> {
  if (!isPostgres(db)) return touchSessions(db, touches);
  await db.transaction().execute(async (tx) => {
    await sql`set local synchronous_commit = off`.execute(tx);
    await touchSessions(tx, touches);
  });
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

// expires_at has no index (a touch would then rewrite it, see migration
// 008), so expired sessions are found by walking the primary key a slice at
// a time: each statement stays short whatever the table's size, and no
// request's touch waits behind one long delete.
const SWEEP_SLICE = 10_000;

/** Deletes every expired session, a slice of ids at a time; answers how many. */
export async function deleteExpiredSessions(conn: Conn, now: number): Promise<number> {
  const range = await conn.selectFrom('sessions').select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')]).executeTakeFirst();
  if (range?.first == null || range.last == null) return 0;
  let deleted = 0;
  for (let from = Number(range.first); from <= Number(range.last); from += SWEEP_SLICE) {
    const result = await conn
      .deleteFrom('sessions')
      .where('id', '>=', from)
      .where('id', '<', from + SWEEP_SLICE)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
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
