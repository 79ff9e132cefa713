import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the pool or an open transaction: store functions accept both. */
export type Conn = Db | Tx;

export function openDatabase(url: string, opts: { poolSize?: number } = {}): Db {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    return new Kysely<Database>({
      dialect: new SqliteDialect({
        database: async () => {
          const db = new SQLite(path);
          // WAL lets readers proceed during a write; busy_timeout makes a
          // second process wait for the write lock instead of failing.
          db.pragma('journal_mode = WAL');
          db.pragma('synchronous = NORMAL');
          db.pragma('busy_timeout = 5000');
          db.pragma('foreign_keys = ON');
          return withStatementCache(db);
        },
      }),
    });
  }
  // node-pg returns BIGINT (int8) as a string to avoid precision loss; our
  // bigint columns hold millisecond times, well inside the safe range.
  const types = {
    getTypeParser: (oid: number, format?: any) => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)),
  };
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, types }) }),
  });
}

/**
 * Kysely prepares every statement anew; preparing costs more than running a
 * small indexed query, so prepared statements are kept per SQL text.
 */
function withStatementCache(db: SQLite.Database): { prepare(sql: string): SQLite.Statement; close(): void } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
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

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
