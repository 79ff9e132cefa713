import { sql } from 'kysely';
import { isPostgres, type Conn, type Db } from './db.js';
import { preparedRows } from './prepared.js';

// The audit_events table: security events, newest first when listed.

export interface AuditEventRecord {
  id: number;
  eventId: string;
  occurredAt: number;
  type: string;
  userId: number | null;
  ip: string;
  userAgent: string;
  outcome: 'success' | 'failure';
  detail: object;
}

export type NewAuditEvent = Omit<AuditEventRecord, 'id'>;

const rowOf = (event: NewAuditEvent) => ({
  event_id: event.eventId,
  occurred_at: event.occurredAt,
  type: event.type,
  user_id: event.userId,
  ip: event.ip,
  user_agent: event.userAgent,
  outcome: event.outcome,
  detail: JSON.stringify(event.detail),
});

export async function insertAuditEvent(conn: Conn, event: NewAuditEvent): Promise<void> {
  await conn.insertInto('audit_events').values(rowOf(event)).execute();
}

const insertAuditRows = preparedRows<ReturnType<typeof rowOf>>(['event_id', 'occurred_at', 'type', 'user_id', 'ip', 'user_agent', 'outcome', 'detail'], (conn, rows) => conn.insertInto('audit_events').values(rows));

/** Many events in one statement (at most a few hundred: each row is 8 parameters), compiled once per count (preparedRows: the OpenID provider's batches of token events). */
export async function insertAuditEvents(conn: Conn, events: readonly NewAuditEvent[]): Promise<void> {
  await insertAuditRows(conn, events.map(rowOf));
}

export interface AuditFilter {
  userId?: number;
  types?: string[];
  /** Who acted for the user (`detail.actor`: cli, admin_api, admin_console, registration), and which key or administrator (`detail.actor_id`); null: the user themselves (no actor). */
  actor?: string | null;
  actorId?: number;
  outcome?: AuditEventRecord['outcome'];
  /** Milliseconds: only events at or after this time. */
  since?: number;
  /** Milliseconds: only events before this time. */
  until?: number;
  /** Only events listed after this one, newest first (the next page of a listing). */
  after?: AuditPosition;
  /** Only events with a lower id (the CLI's --before). */
  beforeId?: number;
  limit: number;
}

/** Where a listing stopped: the last event's time and id (the order is by both, so ties in time page right). */
export interface AuditPosition {
  occurredAt: number;
  id: number;
}

/** A field of the detail JSON as text, in the database's own JSON dialect. */
function detailField(conn: Conn, field: 'actor' | 'actor_id') {
  return isPostgres(conn as Db) ? sql<string>`(detail::jsonb ->> ${sql.lit(field)})` : sql<string>`cast(json_extract(detail, ${sql.lit(`$.${field}`)}) as text)`;
}

/** Matching events, newest first. */
export async function listAuditEvents(conn: Conn, filter: AuditFilter): Promise<AuditEventRecord[]> {
  let query = conn.selectFrom('audit_events').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.types?.length) query = query.where('type', 'in', filter.types);
  if (filter.actor === null) query = query.where(detailField(conn, 'actor'), 'is', null);
  else if (filter.actor !== undefined) query = query.where(detailField(conn, 'actor'), '=', filter.actor);
  if (filter.actorId !== undefined) query = query.where(detailField(conn, 'actor_id'), '=', String(filter.actorId));
  if (filter.outcome !== undefined) query = query.where('outcome', '=', filter.outcome);
  if (filter.since !== undefined) query = query.where('occurred_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('occurred_at', '<', filter.until);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  const after = filter.after;
  if (after) query = query.where((eb) => eb.or([eb('occurred_at', '<', after.occurredAt), eb.and([eb('occurred_at', '=', after.occurredAt), eb('id', '<', after.id)])]));
  const rows = await query.orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    occurredAt: r.occurred_at,
    type: r.type,
    userId: r.user_id,
    ip: r.ip,
    userAgent: r.user_agent,
    outcome: r.outcome as AuditEventRecord['outcome'],
    detail: JSON.parse(r.detail) as object,
  }));
}

/**
 * Every matching event, newest first, read a page at a time so that an
 * export of millions never holds more than one page.
 */
export async function* eachAuditEvent(conn: Conn, filter: Omit<AuditFilter, 'limit' | 'after' | 'beforeId'>, pageSize = 500): AsyncGenerator<AuditEventRecord> {
  let after: AuditPosition | undefined;
  for (;;) {
    const page = await listAuditEvents(conn, { ...filter, after, limit: pageSize });
    yield* page;
    if (page.length < pageSize) return;
    const last = page.at(-1)!;
    after = { occurredAt: last.occurredAt, id: last.id };
  }
}

/** How many events of each type fell in each bucket (`bucket` = the bucket's start in ms, a multiple of its width since the epoch, so edges fall on UTC hours and days). */
export interface BucketCount {
  type: string;
  bucket: number;
  count: number;
}

/**
 * Counts by type and time bucket, grouped in the database: served by the
 * (type, occurred_at, id) index alone (migration 026), never reading the rows.
 */
export async function countAuditEventsByBucket(conn: Conn, types: readonly string[], since: number, until: number, bucketMs: number): Promise<BucketCount[]> {
  const bucket = sql<number>`(occurred_at / ${sql.lit(bucketMs)}) * ${sql.lit(bucketMs)}`;
  const rows = await conn
    .selectFrom('audit_events')
    .select(['type', bucket.as('bucket'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('type', 'in', [...types])
    .where('occurred_at', '>=', since)
    .where('occurred_at', '<', until)
    .groupBy(['type', bucket])
    .execute();
  return rows.map((r) => ({ type: r.type, bucket: Number(r.bucket), count: Number(r.count) }));
}

/** The sum of a numeric detail field of one type's events by time bucket (the refusals a `rate_limit.refused` event tallies). */
export async function sumAuditDetailByBucket(conn: Conn, type: string, field: 'refusals', since: number, until: number, bucketMs: number): Promise<Array<{ bucket: number; total: number }>> {
  const bucket = sql<number>`(occurred_at / ${sql.lit(bucketMs)}) * ${sql.lit(bucketMs)}`;
  const value = isPostgres(conn as Db) ? sql<number>`(detail::jsonb ->> ${sql.lit(field)})::bigint` : sql<number>`json_extract(detail, ${sql.lit(`$.${field}`)})`;
  const rows = await conn
    .selectFrom('audit_events')
    .select([bucket.as('bucket'), sql<number>`sum(${value})`.as('total')])
    .where('type', '=', type)
    .where('occurred_at', '>=', since)
    .where('occurred_at', '<', until)
    .groupBy(bucket)
    .execute();
  return rows.map((r) => ({ bucket: Number(r.bucket), total: Number(r.total ?? 0) }));
}

/** Deletes up to `batch` events older than `cutoff`; answers how many went. */
export async function deleteAuditEventsBefore(db: Db, cutoff: number, batch: number): Promise<number> {
  const oldest = db.selectFrom('audit_events').select('id').where('occurred_at', '<', cutoff).orderBy('occurred_at').limit(batch);
  const result = await db.deleteFrom('audit_events').where('id', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}
