import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('account_deletions'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_deletions_user_id').on('account_deletions').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_deletions').execute();
}
