import { CompiledQuery, type Compilable } from 'kysely';
import { countWrite, readRows, type Conn } from './db.js';

/**
 * A statement that Kysely builds and compiles once per database and that then
 * runs with fresh values: for the statements on hot paths (each request's
 * session lookup, login), where building and compiling a query costs several
 * times what SQLite takes to run it (about 20 µs against 5 µs for a select
 * with two joins).
 *
 * `build` receives stand-ins for its arguments and must hand each one on,
 * unchanged, as a value of the query (normalise before calling, never
 * inside); the first compilation checks that every stand-in arrived. Selects
 * run on SQLite's reader connection where there is one; anything else counts
 * as a write of this process (see writeVersion).
 */
export function prepared<A extends unknown[], R>(build: (conn: Conn, ...args: A) => Compilable<R>): (conn: Conn, ...args: A) => Promise<R[]> {
  // Keyed by the dialect's adapter, which a database shares with its transactions.
  const compiledBy = new WeakMap<object, Statement>();
  return async (conn, ...args) => {
    const adapter = conn.getExecutor().adapter;
    let statement = compiledBy.get(adapter);
    if (!statement) {
      statement = compile(conn, build, args.length);
      compiledBy.set(adapter, statement);
    }
    const parameters = statement.parameters.map((p) => (p instanceof StandIn ? args[p.index] : p));
    const query = CompiledQuery.raw(statement.sql, parameters) as CompiledQuery<R>;
    if (statement.isSelect) return readRows(conn, query);
    const { rows } = await conn.executeQuery(query);
    countWrite(conn);
    return rows;
  };
}

interface Statement {
  sql: string;
  parameters: readonly unknown[];
  isSelect: boolean;
}

/** Marks where an argument goes among a compiled query's parameters. */
class StandIn {
  constructor(readonly index: number) {}
}

/** Compiles `build` given `arity` stand-ins as arguments, checking that `placed` stand-ins (its arguments, or those it made itself) arrived among the values. */
function compile<A extends unknown[], R>(conn: Conn, build: (conn: Conn, ...args: A) => Compilable<R>, arity: number, placedCount = arity): Statement {
  const standIns = Array.from({ length: arity }, (_, i) => new StandIn(i));
  const compiled = build(conn, ...(standIns as unknown as A)).compile();
  const placed = new Set(compiled.parameters.filter((p): p is StandIn => p instanceof StandIn).map((p) => p.index));
  if (placed.size !== placedCount) throw new Error(`prepared statement: every argument must be used as a value (${compiled.sql})`);
  return { sql: compiled.sql, parameters: compiled.parameters, isSelect: compiled.query.kind === 'SelectQueryNode' };
}

/**
 * prepared's counterpart for a multi-row write whose values are rows of the
 * same columns (a batch of tokens, of audit events): built and compiled once
 * per database and row count, then run with each batch's values. Kysely
 * building a 25-row insert allocated and visited several hundred nodes,
 * garbage on a path that issues thousands of tokens a second. `build` must
 * put every value of every row into the query as a value, unchanged; row
 * counts are those of a WriteBatcher's batches (at most its maxBatch), so
 * the cache stays small.
 */
export function preparedRows<V extends Record<string, unknown>>(columns: readonly (keyof V & string)[], build: (conn: Conn, rows: readonly V[]) => Compilable): (conn: Conn, rows: readonly V[]) => Promise<void> {
  const compiledBy = new WeakMap<object, Map<number, Statement>>();
  return async (conn, rows) => {
    if (rows.length === 0) return;
    const adapter = conn.getExecutor().adapter;
    let bySize = compiledBy.get(adapter);
    if (!bySize) compiledBy.set(adapter, (bySize = new Map()));
    let statement = bySize.get(rows.length);
    if (!statement) {
      const standIns = rows.map((_, r) => Object.fromEntries(columns.map((column, c) => [column, new StandIn(r * columns.length + c)])) as unknown as V);
      statement = compile(conn, (c: Conn) => build(c, standIns), 0, rows.length * columns.length);
      bySize.set(rows.length, statement);
    }
    const values = rows.flatMap((row) => columns.map((column) => row[column]));
    await conn.executeQuery(CompiledQuery.raw(statement.sql, statement.parameters.map((p) => (p instanceof StandIn ? values[p.index] : p))));
    countWrite(conn);
  };
}
