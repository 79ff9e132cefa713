import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  type CompiledQuery,
  type KyselyPlugin,
  type LogEvent,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type Transaction,
  type UnknownRow,
} from 'kysely';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { resilientPool } from './pg-pool.js';
import { int8AsNumber } from './pg-module.js';
import type { DependencyUnavailable } from '../kernel/unavailable.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the pool or an open transaction: store functions accept both. */
export type Conn = Db | Tx;

/**
 * Counts the writes this process sends, so a reader can tell whether data it
 * read earlier may have changed since (see writeVersion).
 */
class WriteCounter implements KyselyPlugin {
  version = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind !== 'SelectQueryNode') this.version++;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
// Looked up once per database for writeVersion, which runs on hot paths.
const writeCounters = new WeakMap<object, WriteCounter>();

/** The counter a database and its transactions share. */
function counterOf(conn: Conn): WriteCounter | undefined {
  return conn.getExecutor().plugins.find((p): p is WriteCounter => p instanceof WriteCounter);
}

/** Grows with every write this process makes through `db` (transactions included). */
export function writeVersion(db: Db): number {
  return writeCounters.get(db)?.version ?? 0;
}

/** Counts a write that reached the database as an already compiled query (which plugins do not see). */
export function countWrite(conn: Conn): void {
  const counter = counterOf(conn);
  if (counter) counter.version++;
}

export interface DatabaseOptions {
  poolSize?: number;
  /** Called with the duration of every query, in seconds (for metrics). */
  onQuery?: (seconds: number) => void;
  /** PostgreSQL: deadlines for connecting and for each statement (DATABASE_*_TIMEOUT_MS). */
  timeouts?: { connectTimeoutMs: number; statementTimeoutMs: number };
  /** PostgreSQL: an idle connection was lost (and dropped); for the log. */
  onConnectionLost?: (error: DependencyUnavailable) => void;
}

const DEFAULT_TIMEOUTS = { connectTimeoutMs: 5000, statementTimeoutMs: 5000 };

export function openDatabase(url: string, opts: DatabaseOptions = {}): Db {
  const db = connect(url, opts);
  writeCounters.set(db, counterOf(db)!);
  return db;
}

function connect(url: string, opts: DatabaseOptions): Db {
  const plugins = [new WriteCounter()];
  const onQuery = opts.onQuery;
  // Kysely times each query it runs when given a log function.
  const log = onQuery
    ? (event: LogEvent) => {
        if (event.level === 'query') onQuery(event.queryDurationMillis / 1000);
      }
    : undefined;
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const file: SqliteFile = { path, writerStatements: 0, onQuery };
    const db = new Kysely<Database>({
      plugins,
      log,
      dialect: new SqliteDialect({
        database: async () => {
          const db = new SQLite(path);
          // WAL lets readers proceed during a write; busy_timeout makes a
          // second process wait for the write lock instead of failing.
          db.pragma('journal_mode = WAL');
          db.pragma('synchronous = NORMAL');
          db.pragma('busy_timeout = 5000');
          db.pragma('foreign_keys = ON');
          // better-sqlite3 builds SQLite with a 16 MB page cache per
          // connection (SQLite's own default is 2 MB). On this connection it
          // is memory the process keeps: its own commits do not invalidate
          // it, so every page a write or a Kysely read touches stays cached,
          // and each session's touch brings in another leaf of the sessions
          // table (13 MB at 100,000 sessions). With 100,000 sessions each
          // used once that was +15 MiB of malloc heap (the scale bench's
          // memory target). Touches are single-row updates by primary key,
          // whose cost is the WAL write, not the read, so 2 MB (the B-tree's
          // inner pages and a batch's dirty pages) costs them nothing
          // measurable. The reader connection keeps the 16 MB default: its
          // cache is dropped at every commit anyway (WAL), so it only grows
          // on read-mostly traffic, where it pays for itself.
          db.pragma('cache_size = -2000');
          return withStatementCache(db, () => file.writerStatements++);
        },
      }),
    });
    if (path !== ':memory:') sqliteFiles.set(db, file);
    return db;
  }
  const pool = resilientPool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    types: int8AsNumber(),
    ...(opts.timeouts ?? DEFAULT_TIMEOUTS),
    onError: opts.onConnectionLost ?? (() => {}),
  });
  return new Kysely<Database>({ plugins, log, dialect: new PostgresDialect({ pool }) });
}

/**
 * Kysely prepares every statement anew; preparing costs more than running a
 * small indexed query, so prepared statements are kept per SQL text.
 */
function withStatementCache(db: SQLite.Database, onStatement?: () => void): { prepare(sql: string): SQLite.Statement; close(): void } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    // Kysely runs a statement synchronously right after preparing it, so
    // counting here counts executions, COMMIT included.
    prepare(sql: string) {
      onStatement?.();
      let statement = cache.get(sql);
      if (!statement) {
        // Query texts are built from code, so the set is small; the bound is a guard.
        if (cache.size >= 1000) cache.clear();
        statement = db.prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
    close: () => db.close(),
  };
}

// Hot-path reads on SQLite go through a second, read-only connection: in WAL
// mode it reads the last committed snapshot without queueing behind Kysely's
// single connection (and any transaction open on it), and without the
// promise chain of the query builder.
interface SqliteFile {
  path: string;
  /** Statements run on the writer connection so far (see withStatementCache). */
  writerStatements: number;
  /** Reads on the reader connection bypass Kysely, so they are timed here. */
  onQuery: ((seconds: number) => void) | undefined;
}
interface Reader {
  statements: ReturnType<typeof withStatementCache>;
  file: SqliteFile;
  /** The data_version read during the current event-loop turn. */
  version?: { value: number; writerStatements: number };
}
const sqliteFiles = new WeakMap<object, SqliteFile>();
const readers = new WeakMap<object, Reader>();

function readerFor(conn: Conn): Reader | undefined {
  let reader = readers.get(conn);
  if (!reader) {
    const file = sqliteFiles.get(conn);
    if (!file) return undefined;
    const raw = new SQLite(file.path, { readonly: true, fileMustExist: true });
    raw.pragma('busy_timeout = 5000');
    reader = { statements: withStatementCache(raw), file };
    readers.set(conn, reader);
  }
  return reader;
}

/** Runs a read-only query, on the SQLite reader connection when there is one. */
export async function readRows<R>(conn: Conn, query: CompiledQuery<R>): Promise<R[]> {
  const reader = readerFor(conn);
  if (!reader) return (await conn.executeQuery(query)).rows;
  const onQuery = reader.file.onQuery;
  if (!onQuery) return reader.statements.prepare(query.sql).all(...query.parameters) as R[];
  const started = performance.now();
  const rows = reader.statements.prepare(query.sql).all(...query.parameters) as R[];
  onQuery((performance.now() - started) / 1000);
  return rows;
}

/**
 * SQLite's data_version as the reader connection sees it: it changes whenever
 * any other connection (this process's writer or another process) commits.
 * Undefined where there is no reader (PostgreSQL, in-memory databases).
 *
 * Reading it opens a read transaction (file locks, so system calls), which
 * cost as much as the rest of a session lookup. Requests handled in one
 * event-loop turn therefore share one reading: a statement on this process's
 * writer invalidates it at once, and a commit by another process is seen by
 * every request from the next turn on.
 */
export function sqliteDataVersion(conn: Conn): number | undefined {
  const reader = readerFor(conn);
  if (!reader) return undefined;
  const { file } = reader;
  if (reader.version?.writerStatements !== file.writerStatements) {
    if (!reader.version) setImmediate(() => (reader.version = undefined));
    reader.version = { value: reader.statements.prepare('PRAGMA data_version').pluck().get() as number, writerStatements: file.writerStatements };
  }
  return reader.version.value;
}

export async function closeDatabase(db: Db): Promise<void> {
  readers.get(db)?.statements.close();
  readers.delete(db);
  await db.destroy();
}

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function migratorFor(db: Db): Migrator {
  // Numbers were reserved for work merged later (008 came after 009), so a
  // database may have a later migration applied before an earlier one.
  return new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migratorFor(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Every migration of this version, with when it was applied (null: not yet). Changes nothing. */
export async function migrationStatus(db: Db): Promise<Array<{ name: string; appliedAt: number | null }>> {
  const known = await migratorFor(db).getMigrations();
  return known.map((m) => ({ name: m.name, appliedAt: m.executedAt?.getTime() ?? null }));
}
