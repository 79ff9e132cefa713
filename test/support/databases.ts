import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import pg from 'pg';
import { closeDatabase, migrateToLatest, openDatabase, type Db } from '../../src/store/db.js';
import { POSTGRES_ADMIN_URL, serviceSkipReason } from './services.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export type DatabaseKind = 'sqlite' | 'postgres';

/** A fresh, empty database of the given kind; each test server gets its own. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'auth-test-'));
    return { url: `sqlite:${join(dir, 'db.sqlite3')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        // pg's Pool.end() resolves before its connections have finished
        // closing; FORCE would cut one mid-goodbye and its client would
        // raise an uncaught error in the test process. Let them go first.
        for (let i = 0; i < 100; i++) {
          const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if (rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The database kinds a suite runs on, with the skip reason for each. */
export async function databaseKinds(): Promise<Array<{ kind: DatabaseKind; skip: string | undefined }>> {
  return [
    { kind: 'sqlite', skip: undefined },
    { kind: 'postgres', skip: await serviceSkipReason('PostgreSQL') },
  ];
}

/**
 * For store tests without a server: a fresh database of `kind`, migrated
 * before the enclosing suite's tests and dropped after them. Answers a getter
 * for its connection, valid once the suite's `before` hooks ran.
 */
export function migratedDatabase(kind: DatabaseKind): () => Db {
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  before(async () => {
    database = await createTestDatabase(kind);
    db = openDatabase(database.url);
    await migrateToLatest(db);
  });
  after(async () => {
    if (db) await closeDatabase(db);
    await database?.drop();
  });
  return () => db!;
}

/**
 * For CLI tests: a fresh database of `kind`, migrated and closed before the
 * enclosing suite's tests (the CLI opens it itself) and dropped after them.
 * Answers a getter for its URL.
 */
export function migratedDatabaseUrl(kind: DatabaseKind): () => string {
  let database: TestDatabase | undefined;
  before(async () => {
    database = await createTestDatabase(kind);
    const db = openDatabase(database.url);
    await migrateToLatest(db);
    await closeDatabase(db);
  });
  after(async () => database?.drop());
  return () => database!.url;
}
