import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { liveSessionQuery } from '../../src/store/sessions.js';
import { hashSecret } from '../../src/security/secrets.js';
import { sessionKeyOf } from './keys.js';

// The session lookup's own query, as the server sends it, timed inside
// PostgreSQL: a named prepared statement run for random sessions one after
// another, and the plan of one run with its buffer counts.

export interface LookupFigures {
  /** Mean round trip per lookup, µs (client, socket and PostgreSQL). */
  meanUs: number;
  /** The plan's execution time of one lookup, ms, and the buffers it touched. */
  plan: { executionMs: number; buffers: number; text: string };
}

export async function timeLookups(url: string, size: number, count = 3000): Promise<LookupFigures> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    const now = Date.now();
    const compiled = (i: number) => liveSessionQuery(db, hashSecret(sessionKeyOf(i)), now).compile();
    const { sql } = compiled(1);
    const client = await pool.connect();
    try {
      const run = (i: number) => client.query({ name: 'scale-lookup', text: sql, values: [...compiled(i).parameters] });
      for (let i = 0; i < 200; i++) await run(1 + Math.floor(Math.random() * size));
      const started = performance.now();
      for (let i = 0; i < count; i++) await run(1 + Math.floor(Math.random() * size));
      const meanUs = ((performance.now() - started) * 1000) / count;
      const explained = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, [...compiled(1 + Math.floor(Math.random() * size)).parameters]);
      const top = explained.rows[0]['QUERY PLAN'][0];
      const textPlan = await client.query(`EXPLAIN (COSTS OFF) ${sql}`, [...compiled(1).parameters]);
      return {
        meanUs,
        plan: {
          executionMs: top['Execution Time'],
          buffers: (top.Plan['Shared Hit Blocks'] ?? 0) + (top.Plan['Shared Read Blocks'] ?? 0),
          text: textPlan.rows.map((r) => r['QUERY PLAN']).join('\n'),
        },
      };
    } finally {
      client.release();
    }
  } finally {
    await db.destroy();
  }
}
