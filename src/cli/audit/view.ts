import type { AuditEventRecord } from '../../store/audit-events.js';
import type { Delivery } from '../../store/webhook-deliveries.js';
import { formatTime, isoTime, table } from '../output.js';

export function eventJson(event: AuditEventRecord) {
  return {
    id: event.id,
    event_id: event.eventId,
    occurred_at: isoTime(event.occurredAt),
    type: event.type,
    user_id: event.userId,
    ip: event.ip,
    user_agent: event.userAgent,
    outcome: event.outcome,
    detail: event.detail,
  };
}

/** The detail as key=value pairs, for one table cell. */
function detailText(detail: object): string {
  return Object.entries(detail)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
}

export function eventsText(events: AuditEventRecord[]): string {
  if (events.length === 0) return 'no events';
  return table(
    ['ID', 'TIME', 'TYPE', 'OUTCOME', 'USER', 'IP', 'DETAIL', 'USER AGENT'],
    events.map((e) => [String(e.id), formatTime(e.occurredAt), e.type, e.outcome, e.userId === null ? '-' : String(e.userId), e.ip || '-', detailText(e.detail) || '-', e.userAgent || '-']),
  );
}

export function deliveryJson(delivery: Delivery) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.status === 'pending' ? isoTime(delivery.nextAttemptAt) : null,
    last_error: delivery.lastError,
    created_at: isoTime(delivery.createdAt),
    finished_at: isoTime(delivery.finishedAt),
  };
}

export function deliveriesText(deliveries: Delivery[]): string {
  if (deliveries.length === 0) return 'no webhook deliveries';
  return table(
    ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'CREATED', 'NEXT / FINISHED', 'LAST ERROR', 'URL'],
    deliveries.map((d) => [
      String(d.id),
      d.eventId,
      d.status,
      String(d.attempts),
      formatTime(d.createdAt),
      formatTime(d.status === 'pending' ? d.nextAttemptAt : d.finishedAt),
      d.lastError ?? '-',
      d.url,
    ]),
  );
}
