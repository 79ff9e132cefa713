import pg from 'pg';
import { closeDatabase, migrateToLatest, openDatabase } from '../../src/store/db.js';
import { migrations } from '../../src/store/migrations/index.js';
import { hashPassword } from '../../src/security/passwords.js';
import { keyDigestSql } from './keys.js';

// The scale bench's PostgreSQL databases: one per size, built through the
// project's own migrations and filled with bulk SQL (generate_series), every
// user with the same real argon2id hash. A database is reused while its
// migration level and its recorded size match; rows a previous run added
// (signups, logins) are removed first, so every run starts from the same data.

export const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const PASSWORD = 'scale bench password';
/** Every bench user's address: user i (1-based) is `user<i>@scale.example.com`. */
export const emailOf = (i: number) => `user${i}@scale.example.com`;

export function urlOf(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** What `name` holds when it was built by this bench at this migration level; null otherwise. */
async function built(name: string): Promise<{ size: number; loadedAt: number } | null> {
  const exists = await withClient(ADMIN_URL, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
  if (!exists) return null;
  return withClient(urlOf(name), async (c) => {
    const marker = await c.query(`SELECT to_regclass('scale_bench') AS t`);
    if (!marker.rows[0].t) return null;
    const { rows } = await c.query('SELECT size, migrations, loaded_at FROM scale_bench');
    const row = rows[0];
    return row?.migrations === Object.keys(migrations).join(',') ? { size: Number(row.size), loadedAt: Number(row.loaded_at) } : null;
  });
}

/** A database of `size` users, each with a primary address and one live session; built or reused. */
export async function scaleDatabase(name: string, size: number, log: (line: string) => void): Promise<string> {
  const url = urlOf(name);
  const found = await built(name);
  if (found?.size === size) {
    await resetTo(url, size, found.loadedAt);
    log(`${name}: reused (${size} users)`);
    return url;
  }
  const started = performance.now();
  await withClient(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  const db = openDatabase(url);
  try {
    await migrateToLatest(db);
  } finally {
    await closeDatabase(db);
  }
  const hash = await hashPassword(PASSWORD);
  await withClient(url, async (c) => {
    await c.query('SET synchronous_commit = off');
    await c.query(`SET maintenance_work_mem = '256MB'`);
    const loadedAt = Date.now();
    await load(c, size, hash, loadedAt);
    await c.query('CREATE TABLE scale_bench (size integer NOT NULL, migrations text NOT NULL, loaded_at bigint NOT NULL)');
    await c.query('INSERT INTO scale_bench VALUES ($1, $2, $3)', [size, Object.keys(migrations).join(','), loadedAt]);
    await c.query('VACUUM ANALYZE');
  });
  log(`${name}: built ${size} users in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return url;
}

// Logged in an hour before the load, last seen two minutes before it, alive
// for a year (the bench servers run with SESSION_ABSOLUTE_LIFETIME=0): the
// first request of each session extends it, as for a user coming back.
const startedBefore = 3_600_000;
const seenBefore = 120_000;
const aliveFor = 365 * 86_400_000;

async function load(c: pg.Client, size: number, hash: string, now: number): Promise<void> {
  const params = [size, hash, now];
  await c.query(
    `INSERT INTO users (id, username, username_lower, password_hash, is_active, created_at, last_login_at, password_changed_at)
     SELECT i, NULL, NULL, $2, 1, $3::bigint, NULL, $3::bigint FROM generate_series(1, $1::int) AS i`,
    params,
  );
  await c.query(
    `INSERT INTO email_addresses (id, user_id, email, email_lower, verified, is_primary, created_at)
     SELECT i, i, 'user' || i || '@scale.example.com', 'user' || i || '@scale.example.com', 1, 1, $2::bigint FROM generate_series(1, $1::int) AS i`,
    [size, now],
  );
  await c.query(
    `INSERT INTO sessions (id, key_hash, user_id, methods, flow, flow_attempts, created_at, last_seen_at, expires_at, ip, user_agent)
     SELECT i, ${keyDigestSql(`'scale-session-' || i`)}, i,
            '[{"method":"password","at":' || ($2::bigint - $3::bigint) / 1000 || ',"email":"user' || i || '@scale.example.com"}]',
            NULL, 0, $2::bigint - $3::bigint, $2::bigint - $4::bigint, $2::bigint + $5::bigint, '127.0.0.1', 'scale bench'
     FROM generate_series(1, $1::int) AS i`,
    [size, now, startedBefore, seenBefore, aliveFor],
  );
  for (const table of ['users', 'email_addresses', 'sessions']) {
    await c.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), $1)`, [size]);
  }
}

/** Removes what earlier runs added and puts the sessions they touched back as loaded. */
async function resetTo(url: string, size: number, loadedAt: number): Promise<void> {
  await withClient(url, async (c) => {
    await c.query('DELETE FROM sessions WHERE id > $1', [size]);
    await c.query('DELETE FROM users WHERE id > $1', [size]);
    await c.query('UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE last_seen_at <> $1', [loadedAt - seenBefore, loadedAt + aliveFor]);
    for (const table of ['users', 'email_addresses', 'sessions']) {
      await c.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
    }
    await c.query('VACUUM ANALYZE sessions, users, email_addresses');
  });
}
