import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { liveSessionQuery } from '../../src/store/sessions.js';
import { sessionKeyDigest } from '../../src/security/secrets.js';
import { sessionKeyOf } from './keys.js';

// The session lookup's own query, as the server sends it, timed inside
// PostgreSQL: prepared once per database, then EXPLAIN ANALYZE'd for random
// sessions in rounds that alternate between the databases, so the figures
// are PostgreSQL's execution time and buffers, not the client's scheduling.

export interface LookupFigures {
  /** Mean execution time per lookup, µs (median over rounds). */
  executionUs: number;
  /** Mean shared buffers (hit + read) per lookup. */
  buffers: number;
  plan: string;
}

interface Prepared {
  client: pg.Client;
  size: number;
  parameters: (i: number) => unknown[];
}

async function prepare(url: string, size: number): Promise<Prepared> {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  const now = Date.now();
  const compile = (i: number) => liveSessionQuery(db, sessionKeyDigest(sessionKeyOf(i)), now).compile();
  const { sql } = compile(1);
  await db.destroy();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`PREPARE scale_lookup AS ${sql}`);
  return { client, size, parameters: (i) => [...compile(i).parameters] };
}

/** EXECUTE under EXPLAIN takes no bound parameters: the values go in as literals. */
function literal(value: unknown): string {
  if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'::bytea`;
  if (typeof value === 'number') return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}

const execute = (p: Prepared, i: number) => `EXECUTE scale_lookup(${p.parameters(i).map(literal).join(', ')})`;

async function explainOnce(p: Prepared): Promise<{ ms: number; buffers: number }> {
  const { rows } = await p.client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${execute(p, 1 + Math.floor(Math.random() * p.size))}`);
  const top = rows[0]['QUERY PLAN'][0];
  return { ms: top['Execution Time'], buffers: (top.Plan['Shared Hit Blocks'] ?? 0) + (top.Plan['Shared Read Blocks'] ?? 0) };
}

export async function timeLookups(databases: Array<{ url: string; size: number }>, rounds = 5, perRound = 400): Promise<LookupFigures[]> {
  const prepared = await Promise.all(databases.map((d) => prepare(d.url, d.size)));
  try {
    for (const p of prepared) for (let i = 0; i < 100; i++) await explainOnce(p);
    const times: number[][] = prepared.map(() => []);
    const buffers: number[] = prepared.map(() => 0);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? prepared.map((_, k) => k) : prepared.map((_, k) => prepared.length - 1 - k);
      for (const k of order) {
        let ms = 0;
        for (let i = 0; i < perRound; i++) {
          const one = await explainOnce(prepared[k]!);
          ms += one.ms;
          buffers[k]! += one.buffers;
        }
        times[k]!.push((ms * 1000) / perRound);
      }
    }
    return await Promise.all(
      prepared.map(async (p, k) => {
        const plan = await p.client.query(`EXPLAIN (COSTS OFF) ${execute(p, 1)}`);
        return {
          executionUs: [...times[k]!].sort((a, b) => a - b)[Math.floor(rounds / 2)]!,
          buffers: buffers[k]! / (rounds * perRound),
          plan: plan.rows.map((r) => r['QUERY PLAN']).join('\n'),
        };
      }),
    );
  } finally {
    await Promise.all(prepared.map((p) => p.client.end()));
  }
}
