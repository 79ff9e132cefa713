import { sql } from 'kysely';
import type { AllauthSource } from './source.js';

/** How many rows a source table holds; 0 when the table is absent. */
export async function countRows(source: AllauthSource, table: string): Promise<number> {
  if (!source.tables.has(table)) return 0;
  const row = await source.conn
    .selectFrom(table as 'django_session')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A source table's rows counted by the value of `column`; empty when the table or column is absent. */
export async function countRowsBy(source: AllauthSource, table: string, column: string): Promise<Map<string, number>> {
  if (!source.tables.get(table)?.has(column)) return new Map();
  const value = sql<string>`${sql.ref(column)}`;
  const rows = await source.conn
    .selectFrom(table as 'django_session')
    .select([value.as('value'), (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(value)
    .execute();
  return new Map(rows.map((row) => [String(row.value), Number(row.n)]));
}
