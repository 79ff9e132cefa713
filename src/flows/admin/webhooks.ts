import type { Config } from '../../config/config.js';
import type { Db } from '../../store/db.js';
import { findDeliveries, listDeliveries, requeueFailedDeliveries, type Delivery, type DeliveryStatus } from '../../store/webhook-deliveries.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';

// Operating the webhook outbox, for the admin CLI and any other admin
// front end: the deliveries that still need something (pending ones, and
// failed ones, which no sender tries again), and putting failed ones back.

export interface AdminDeps {
  config: Config;
  db: Db;
}

const UNDELIVERED: readonly DeliveryStatus[] = ['pending', 'failed'];

/** Undelivered deliveries (or those of one status, delivered ones too), newest first; `beforeId` pages on. */
export function undeliveredWebhooks(deps: AdminDeps, filter: { status?: DeliveryStatus; beforeId?: number; limit: number }): Promise<Delivery[]> {
  return listDeliveries(deps.db, { statuses: filter.status ? [filter.status] : UNDELIVERED, beforeId: filter.beforeId, limit: filter.limit });
}

/** Deliveries of any status (or one), optionally of one event, newest first: the CLI's view of the outbox. */
export function webhookDeliveries(deps: AdminDeps, filter: { status?: DeliveryStatus; eventId?: string; limit: number }): Promise<Delivery[]> {
  return listDeliveries(deps.db, { statuses: filter.status && [filter.status], eventId: filter.eventId, limit: filter.limit });
}

export type RequeueResult =
  | { ok: true; requeued: Delivery[] }
  /** Nothing was requeued: `id` is no delivery, or one that has not failed. */
  | { ok: false; reason: 'not_found' | 'not_failed'; id: number; status?: DeliveryStatus };

/**
 * Puts failed deliveries back for the running senders to deliver at once,
 * their attempts counted afresh: the ones named (all of them failed, or
 * none is requeued), or every failed one. One `webhook.requeued` event
 * records how many, in the same transaction; requeuing none records nothing.
 */
export async function requeueWebhooks(deps: AdminDeps, source: AuditSource, which: readonly number[] | 'all failed'): Promise<RequeueResult> {
  if (which !== 'all failed') {
    const found = new Map((await findDeliveries(deps.db, which)).map((d) => [d.id, d]));
    for (const id of which) {
      const delivery = found.get(id);
      if (!delivery) return { ok: false, reason: 'not_found', id };
      if (delivery.status !== 'failed') return { ok: false, reason: 'not_failed', id, status: delivery.status };
    }
  }
  const requeued = await deps.db.transaction().execute(async (tx) => {
    const rows = await requeueFailedDeliveries(tx, which === 'all failed' ? 'all' : which, source.now);
    if (rows.length > 0) await recordEvent(deps, tx, source, 'webhook.requeued', { userId: null, detail: { deliveries: rows.length } });
    return rows;
  });
  return { ok: true, requeued };
}
