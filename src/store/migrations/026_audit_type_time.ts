import type { Kysely } from 'kysely';

// The dashboard counts events of a few types by time bucket, and the audit
// screen lists one type's events newest first: an index by type, then time
// (then id, the listing's tiebreak) serves both without reading the rows.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_events_type_time').on('audit_events').columns(['type', 'occurred_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_events_type_time').execute();
}
