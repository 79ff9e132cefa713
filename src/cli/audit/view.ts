import type { AuditEventRecord } from '../../store/audit-events.js';
import type { Delivery } from '../../store/webhook-deliveries.js';
import { formatTime, table } from '../output.js';

// JSON output: the admin API's views (http/admin/views.ts), so both adapters print the same shapes.
export { eventView as eventJson, deliveryView as deliveryJson } from '../../http/admin/views.js';

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
