import type { Conn, Db } from './db.js';
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
  /** Milliseconds: only events at or after this time. */
  since?: number;
  /** Milliseconds: only events before this time. */
  until?: number;
  /** Only events with a lower id (the next page of a listing). */
  beforeId?: number;
  limit: number;
}

/** Matching events, newest first. */
export async function listAuditEvents(conn: Conn, filter: AuditFilter): Promise<AuditEventRecord[]> {
  let query = conn.selectFrom('audit_events').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.types?.length) query = query.where('type', 'in', filter.types);
  if (filter.since !== undefined) query = query.where('occurred_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('occurred_at', '<', filter.until);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
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

/** Deletes up to `batch` events older than `cutoff`; answers how many went. */
export async function deleteAuditEventsBefore(db: Db, cutoff: number, batch: number): Promise<number> {
  const oldest = db.selectFrom('audit_events').select('id').where('occurred_at', '<', cutoff).orderBy('occurred_at').limit(batch);
  const result = await db.deleteFrom('audit_events').where('id', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}
