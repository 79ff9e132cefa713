import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

// One-time links that let an administrator set up their console sign-in
// (a password if they have none, then a second factor): printed once by
// `users set-admin --setup-link`, stored only as the SHA-256 of their secret,
// good until they expire or are used. A user has at most one live link: a
// new one replaces the others.
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('admin_setup_links'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('admin_setup_links_user_id').on('admin_setup_links').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('admin_setup_links').execute();
}
