import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('users'))
    .addColumn('username', 'varchar(150)')
    .addColumn('username_lower', 'varchar(150)', (c) => c.unique())
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint')
    .addColumn('password_changed_at', 'bigint', (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('email_addresses'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    // One account per address (the reference's ACCOUNT_UNIQUE_EMAIL), enforced
    // by the database so that concurrent signups cannot both win.
    .addColumn('email_lower', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_addresses_user_id').on('email_addresses').column('user_id').execute();

  await idColumn(db, db.schema.createTable('sessions'))
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('methods', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('flow', 'text')
    .addColumn('flow_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  await idColumn(db, db.schema.createTable('one_time_keys'))
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email_address_id', 'integer', (c) => c.references('email_addresses.id').onDelete('cascade'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('one_time_keys_user_id').on('one_time_keys').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['one_time_keys', 'sessions', 'email_addresses', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
