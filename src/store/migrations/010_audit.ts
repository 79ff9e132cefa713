import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

// Security events (who did what, when, from where, with what outcome) and the
// outbox their webhooks are delivered from. No foreign key to users: the
// history of an account outlives the account.
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('audit_events'))
    // Random and stable: the id receivers see (webhook-id), unique across databases.
    .addColumn('event_id', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('audit_events_time').on('audit_events').columns(['occurred_at', 'id']).execute();
  await db.schema.createIndex('audit_events_user').on('audit_events').columns(['user_id', 'occurred_at']).execute();

  await idColumn(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('event_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // pending, delivered or failed (out of attempts).
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // The next try, or while a sender holds the row, the end of its lease.
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_token', 'varchar(40)')
    .addColumn('last_error', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addUniqueConstraint('webhook_deliveries_event_url', ['event_id', 'url'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('audit_events').execute();
}
