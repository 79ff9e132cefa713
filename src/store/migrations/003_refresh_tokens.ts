import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('refresh_tokens'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('family_id', 'varchar(36)', (c) => c.notNull())
    // Refresh tokens die with their session: logout, expiry cleanup, account deletion.
    .addColumn('session_id', 'integer', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('successor_id', 'integer')
    .addColumn('successor_sealed', 'text')
    .execute();
  await db.schema.createIndex('refresh_tokens_family_id').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_session_id').on('refresh_tokens').column('session_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refresh_tokens').execute();
}
