import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

// The admin role (users who may use the admin console) and the admin API's
// keys. A key is stored only as the SHA-256 of its secret, looked up by that
// hash on every request: revoking one takes effect on every instance at once.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await idColumn(db, db.schema.createTable('admin_api_keys'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    // read or write.
    .addColumn('scope', 'varchar(8)', (c) => c.notNull())
    // The first characters of the key, shown in listings to tell keys apart; not enough to use it.
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('admin_api_keys').execute();
  await db.schema.alterTable('users').dropColumn('is_admin').execute();
}
