import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

// Which row of an imported database became which row here, so that an import
// run again skips what it brought over before, rows deleted here since
// included. No foreign key: the record outlives its target.
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('import_records'))
    .addColumn('source', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('source_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(255)')
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('import_records_source_row', ['source', 'kind', 'source_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_records').execute();
}
