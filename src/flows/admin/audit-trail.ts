import { listAuditEvents, type AuditEventRecord, type AuditFilter } from '../../store/audit-events.js';
import type { AdminDeps } from './webhooks.js';

// The audit trail as an administrator queries it: by user, type and time,
// newest first, a page at a time (`beforeId`).

export function auditEvents(deps: AdminDeps, filter: AuditFilter): Promise<AuditEventRecord[]> {
  return listAuditEvents(deps.db, filter);
}
