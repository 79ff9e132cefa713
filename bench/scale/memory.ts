import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { closeDatabase, migrateToLatest, openDatabase } from '../../src/store/db.js';
import { hashPassword } from '../../src/security/passwords.js';
import { sessionKeyDigest } from '../../src/security/secrets.js';
import { PASSWORD } from './databases.js';
import { sessionKeyOf } from './keys.js';
import { useSessions } from './loads.js';
import { rssMiB } from '../processes.js';
import { startScaleServer } from './server.js';

// The server's footprint: resident memory once started and idle, and after
// `sessions` distinct sessions were each used once (a touch apiece).

export interface MemoryFigures {
  idle: number;
  afterSessions: number;
  sessions: number;
  errors: number;
}

export async function measureMemory(name: string, databaseUrl: string, sessions: number): Promise<MemoryFigures> {
  const server = await startScaleServer(name, databaseUrl);
  try {
    // Start-up work (migrations, the first requests' compilation) settles first.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = rssMiB(server.child.pid!);
    const used = await useSessions(server.api, sessions);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { idle, afterSessions: rssMiB(server.child.pid!), sessions, errors: used.errors };
  } finally {
    await server.stop();
  }
}

/** A SQLite database of `size` users with a session each, built like the PostgreSQL ones; removed by the returned function. */
export async function sqliteScaleDatabase(size: number): Promise<{ url: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'scale-bench-'));
  const path = join(dir, 'db.sqlite3');
  const db = openDatabase(`sqlite:${path}`);
  try {
    await migrateToLatest(db);
  } finally {
    await closeDatabase(db);
  }
  const hash = await hashPassword(PASSWORD);
  const raw = new SQLite(path);
  try {
    raw.function('scale_key', (i: number | bigint) => sessionKeyDigest(sessionKeyOf(Number(i))));
    const now = Date.now();
    raw.transaction(() => {
      const series = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${size})`;
      raw.prepare(`${series} INSERT INTO users (id, password_hash, is_active, created_at, password_changed_at) SELECT i, ?, 1, ?, ? FROM n`).run(hash, now, now);
      raw
        .prepare(`${series} INSERT INTO email_addresses (id, user_id, email, email_lower, verified, is_primary, created_at) SELECT i, i, 'user' || i || '@scale.example.com', 'user' || i || '@scale.example.com', 1, 1, ? FROM n`)
        .run(now);
      raw
        .prepare(
          `${series} INSERT INTO sessions (id, key_hash, user_id, methods, flow, flow_attempts, created_at, last_seen_at, expires_at, ip, user_agent)
           SELECT i, scale_key(i), i, '[{"method":"password","at":' || (? / 1000) || '}]', NULL, 0, ?, ?, ?, '127.0.0.1', 'scale bench' FROM n`,
        )
        .run(now - 3_600_000, now - 3_600_000, now - 120_000, now + 86_400_000);
    })();
  } finally {
    raw.close();
  }
  return { url: `sqlite:${path}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
