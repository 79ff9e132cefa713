import { sql, type Kysely } from 'kysely';

// The admin API lists users newest first, or by their last login, as well as
// by id. Keyset paging in those orders reads (sort key, id) pairs from the
// cursor on: each needs an index on exactly that pair, so a page deep in a
// million users costs what the first does. A user who never logged in sorts
// as having logged in at 0 (the longest ago), which keeps the key non-null
// and the index a plain one. Both statements are the same SQL on SQLite and
// PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index users_created_order on users (created_at, id)`.execute(db);
  await sql`create index users_last_login_order on users ((coalesce(last_login_at, 0)), id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_last_login_order').execute();
  await db.schema.dropIndex('users_created_order').execute();
}
