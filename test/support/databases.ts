import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import pg from 'pg';
import { closeDatabase, migrateToLatest, openDatabase, type Db } from '../../src/store/db.js';
import { POSTGRES_ADMIN_URL, serviceSkipReason } from './services.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export type DatabaseKind = 'sqlite' | 'postgres';

/** A fresh, empty database of the given kind (for tests of the migrations themselves). */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'auth-test-'));
    return { url: `sqlite:${join(dir, 'db.sqlite3')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  return createPostgresDatabase();
}

/**
 * A fresh database of the given kind with every migration applied; each test
 * server gets its own. It is a copy of a template migrated once per version
 * of the migrations (and kept for later runs), which costs a file copy on
 * SQLite and a CREATE DATABASE on PostgreSQL instead of running every
 * migration again: about a second per PostgreSQL server on the loaded VM.
 * The server still runs its own migration step on start, which finds
 * nothing to do; the suites that start on an empty database (the migration
 * tests, the CLI's `migrate`) use createTestDatabase.
 */
export async function createMigratedDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const template = await sqliteTemplate();
    const dir = mkdtempSync(join(tmpdir(), 'auth-test-'));
    const path = join(dir, 'db.sqlite3');
    copyFileSync(template, path);
    return { url: `sqlite:${path}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  return createPostgresDatabase(await postgresTemplate());
}

async function createPostgresDatabase(template?: string): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  return { url: postgresUrl(name), drop: () => dropPostgresDatabase(name) };
}

function postgresUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(query: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(query);
  } finally {
    await admin.end();
  }
}

async function dropPostgresDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await untilDisconnected(client, name);
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

// pg's Pool.end() resolves before its connections have finished closing;
// FORCE would cut one mid-goodbye and its client would raise an uncaught
// error in the test process, and a rename or a copy refuses a database
// someone is connected to. Let them go first.
async function untilDisconnected(client: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Names the migrations' source: a template made from other migrations (an
 * older checkout, another branch on the same PostgreSQL) is never used.
 */
function migrationsDigest(): string {
  const dir = new URL('../../src/store/migrations/', import.meta.url);
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(file).update('\0').update(readFileSync(new URL(file, dir))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

let sqliteTemplatePath: Promise<string> | undefined;
let postgresTemplateName: Promise<string> | undefined;

/** The migrated SQLite file to copy, built by the first test process that needs it. */
function sqliteTemplate(): Promise<string> {
  sqliteTemplatePath ??= (async () => {
    const path = join(tmpdir(), `auth-test-template-${migrationsDigest()}.sqlite3`);
    if (existsSync(path)) return path;
    const dir = mkdtempSync(join(tmpdir(), 'auth-test-template-'));
    try {
      const building = join(dir, 'db.sqlite3');
      const db = openDatabase(`sqlite:${building}`);
      await migrateToLatest(db);
      // Closing the last connection checkpoints the WAL into the file and removes it.
      await closeDatabase(db);
      if (existsSync(`${building}-wal`)) throw new Error(`the template ${building} kept its WAL after closing`);
      // Atomic: another process copies either no template or a complete one.
      renameSync(building, path);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return path;
  })();
  return sqliteTemplatePath;
}

/**
 * The migrated PostgreSQL database to copy, built by the first test process
 * that needs it under a name of its own and then renamed, so that no process
 * copies a half-migrated one. It refuses connections, so that nothing (not
 * even autovacuum) holds it open while CREATE DATABASE copies it.
 */
function postgresTemplate(): Promise<string> {
  postgresTemplateName ??= (async () => {
    const name = `tpl_${migrationsDigest()}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount) return name;
      const building = `tplb_${randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${building}`);
      try {
        const db = openDatabase(postgresUrl(building));
        try {
          await migrateToLatest(db);
        } finally {
          await closeDatabase(db);
        }
        await untilDisconnected(admin, building);
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      } catch (error) {
        // Another process published the same template first: use theirs.
        if ((error as { code?: string }).code !== '42P04') throw error;
      } finally {
        // Gone after the rename; left over when another process won.
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return postgresTemplateName;
}

/** The database kinds a suite runs on, with the skip reason for each. */
export async function databaseKinds(): Promise<Array<{ kind: DatabaseKind; skip: string | undefined }>> {
  return [
    { kind: 'sqlite', skip: undefined },
    { kind: 'postgres', skip: await serviceSkipReason('PostgreSQL') },
  ];
}

/**
 * For store tests without a server: a fresh migrated database of `kind`, opened
 * before the enclosing suite's tests and dropped after them. Answers a getter
 * for its connection, valid once the suite's `before` hooks ran.
 */
export function migratedDatabase(kind: DatabaseKind): () => Db {
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  before(async () => {
    database = await createMigratedDatabase(kind);
    db = openDatabase(database.url);
  });
  after(async () => {
    if (db) await closeDatabase(db);
    await database?.drop();
  });
  return () => db!;
}

/**
 * For CLI tests: a fresh migrated database of `kind`, made before the
 * enclosing suite's tests (the CLI opens it itself) and dropped after them.
 * Answers a getter for its URL.
 */
export function migratedDatabaseUrl(kind: DatabaseKind): () => string {
  let database: TestDatabase | undefined;
  before(async () => {
    database = await createMigratedDatabase(kind);
  });
  after(async () => database?.drop());
  return () => database!.url;
}
