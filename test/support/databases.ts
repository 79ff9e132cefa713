import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
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
