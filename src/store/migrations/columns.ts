import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// The one dialect difference the migrations need: an auto-incrementing
// integer key is `serial` on PostgreSQL and `integer ... autoincrement` on SQLite.
export function idColumn<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return postgres
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
