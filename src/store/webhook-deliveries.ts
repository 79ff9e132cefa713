import { sql, type Selectable } from 'kysely';
import { isPostgres, type Conn, type Db } from './db.js';
import type { WebhookDeliveriesTable } from './schema.js';

// The webhook outbox. A row is written with its event, in the same
// transaction, and leaves the pending state only when a sender delivered it
// or ran out of attempts. `next_attempt_at` is both the time of the next try
// and, while a sender holds the row, the end of its lease: a sender that
// dies leaves the row to be claimed again when the lease runs out.

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: number;
  eventId: string;
  url: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  finishedAt: number | null;
  /** `webhook`, or `backchannel_logout` (the payload is the form body for the client's back-channel logout URI). */
  kind: string;
}

type Row = Omit<Selectable<WebhookDeliveriesTable>, 'lease_token'>;

const toDelivery = (r: Row): Delivery => ({
  id: r.id,
  eventId: r.event_id,
  url: r.url,
  payload: r.payload,
  status: r.status as DeliveryStatus,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
  kind: r.kind,
});

export async function insertDeliveries(conn: Conn, eventId: string, urls: string[], payload: string, now: number): Promise<void> {
  if (urls.length === 0) return;
  await conn
    .insertInto('webhook_deliveries')
    .values(urls.map((url) => ({ event_id: eventId, url, payload, status: 'pending', attempts: 0, next_attempt_at: now, created_at: now })))
    .execute();
}

/** An OpenID back-channel logout request for one client, delivered by the same senders. */
export async function insertBackchannelDelivery(conn: Conn, input: { eventId: string; url: string; body: string; now: number }): Promise<void> {
  await conn
    .insertInto('webhook_deliveries')
    .values({ event_id: input.eventId, url: input.url, payload: input.body, status: 'pending', attempts: 0, next_attempt_at: input.now, created_at: input.now, kind: 'backchannel_logout' })
    .execute();
}

/**
 * Takes up to `limit` due rows for one sender until `leaseUntil`, counting
 * the attempt. One statement, so on SQLite (one writer at a time) two
 * senders cannot take the same row; on PostgreSQL rows another sender is
 * taking are skipped rather than waited for.
 */
export async function claimDueDeliveries(db: Db, opts: { now: number; leaseUntil: number; token: string; limit: number }): Promise<Delivery[]> {
  const due = db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', opts.now).orderBy('id').limit(opts.limit);
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: opts.leaseUntil, lease_token: opts.token, attempts: sql<number>`attempts + 1` })
    .where('id', 'in', isPostgres(db) ? due.forUpdate().skipLocked() : due)
    // Checked again on the row itself: on PostgreSQL the subquery may have read it before another sender's claim committed.
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', opts.now)
    .returningAll()
    .execute();
  return rows.map(toDelivery).sort((a, b) => a.id - b.id);
}

/**
 * Records how an attempt ended, if the sender still holds the row (its
 * lease not taken over by another): delivered, failed for good, or pending
 * again from `nextAttemptAt`.
 */
export async function settleDelivery(
  db: Db,
  id: number,
  token: string,
  result: { status: DeliveryStatus; now: number; nextAttemptAt?: number; error?: string },
): Promise<boolean> {
  const finished = result.status !== 'pending';
  const update = await db
    .updateTable('webhook_deliveries')
    .set({
      status: result.status,
      lease_token: null,
      last_error: result.error?.slice(0, 255) ?? null,
      ...(finished ? { finished_at: result.now } : { next_attempt_at: result.nextAttemptAt ?? result.now }),
    })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return update.numUpdatedRows > 0n;
}

/** Deliveries, newest first: of these statuses, of this event, with ids below `beforeId` (the next page). */
export async function listDeliveries(conn: Conn, filter: { statuses?: readonly DeliveryStatus[]; eventId?: string; beforeId?: number; limit: number }): Promise<Delivery[]> {
  let query = conn.selectFrom('webhook_deliveries').selectAll();
  if (filter.statuses) query = query.where('status', 'in', filter.statuses);
  if (filter.eventId) query = query.where('event_id', '=', filter.eventId);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  const rows = await query.orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.map(toDelivery);
}

export async function findDeliveries(conn: Conn, ids: readonly number[]): Promise<Delivery[]> {
  if (ids.length === 0) return [];
  const rows = await conn.selectFrom('webhook_deliveries').selectAll().where('id', 'in', ids).execute();
  return rows.map(toDelivery);
}

/**
 * Puts failed deliveries (those named, or all) back in the queue: due at
 * `now`, with no attempt counted, so a sender takes them in its next round
 * and tries each WEBHOOK_MAX_ATTEMPTS times again. Their last error stays
 * until an attempt replaces it. Rows not failed (any more) are left alone.
 */
export async function requeueFailedDeliveries(conn: Conn, which: readonly number[] | 'all', now: number): Promise<Delivery[]> {
  if (which !== 'all' && which.length === 0) return [];
  let query = conn
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, finished_at: null, lease_token: null })
    .where('status', '=', 'failed');
  if (which !== 'all') query = query.where('id', 'in', which);
  const rows = await query.returningAll().execute();
  return rows.map(toDelivery).sort((a, b) => a.id - b.id);
}

/**
 * Rows still to deliver (due now or later, for the backlog gauge) and those
 * due now: a read, so an idle sender takes no write lock and bumps no write
 * counter (see db.ts) when there is nothing to claim.
 */
export async function pendingDeliveries(conn: Conn, now: number): Promise<{ pending: number; due: number }> {
  const row = await conn
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.sum<number>(eb.case().when('next_attempt_at', '<=', now).then(1).else(0).end()).as('due')])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), due: Number(row.due ?? 0) };
}

/** Deletes up to `batch` delivered or failed rows finished before `cutoff`; pending ones are never swept. */
export async function deleteFinishedDeliveriesBefore(db: Db, cutoff: number, batch: number): Promise<number> {
  const oldest = db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'pending').where('finished_at', '<', cutoff).orderBy('id').limit(batch);
  const result = await db.deleteFrom('webhook_deliveries').where('id', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}
