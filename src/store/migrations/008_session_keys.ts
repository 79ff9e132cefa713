import { PostgresAdapter, sql, type Kysely } from 'kysely';

// The session lookup runs on every request, so its table is shaped for it:
// - the key's SHA-256 as 32 raw bytes instead of 64 hex characters: half the
//   index, compared byte by byte rather than under the database's collation;
// - no index on expires_at: a touch (last_seen_at, expires_at) then changes
//   no indexed column, and with room left on each page (fillfactor) PostgreSQL
//   updates the row in place without touching any index (a HOT update). The
//   sweeper walks the table by id instead (see deleteExpiredSessions).
// Existing rows are converted, so every session survives the migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sessions_expires_at').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Set first: the type change below rewrites the table, which then leaves the room.
    await sql`ALTER TABLE sessions SET (fillfactor = 80)`.execute(db);
    await sql`ALTER TABLE sessions ALTER COLUMN key_hash TYPE bytea USING decode(key_hash, 'hex')`.execute(db);
    return;
  }
  // SQLite stores each value with its own type and never converts a blob, so
  // the values change in place; the declared type stays (changing it would
  // mean rebuilding a table other tables reference).
  await sql`UPDATE sessions SET key_hash = unhex(key_hash) WHERE typeof(key_hash) = 'text'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`ALTER TABLE sessions ALTER COLUMN key_hash TYPE varchar(64) USING encode(key_hash, 'hex')`.execute(db);
    await sql`ALTER TABLE sessions RESET (fillfactor)`.execute(db);
  } else {
    await sql`UPDATE sessions SET key_hash = lower(hex(key_hash)) WHERE typeof(key_hash) = 'blob'`.execute(db);
  }
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
}
