import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

// One phone number per account (the reference keeps a single number per
// user), stored in E.164. The number is unique across accounts, enforced by
// the database so two concurrent claims of one number cannot both win.
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('phone_numbers'))
    .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    // E.164: a plus sign and at most 15 digits.
    .addColumn('phone', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('phone_numbers').execute();
}
