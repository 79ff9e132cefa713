// How the dashboard's counts (GET /audit-stats, store/audit-events.ts
// countAuditEventsByBucket) cost at scale: seeds N audit events (default
// 1,000,000) spread over 60 days, a third of them of the four counted types,
// prints the query plan and times a month's and a day's statistics, each the
// median of several runs.
//   node --import tsx bench/audit-stats.ts sqlite [N]
//   node --import tsx bench/audit-stats.ts postgres [N]   (TEST_POSTGRES_URL's server)
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createTestDatabase, type DatabaseKind } from '../test/support/databases.js';
import { closeDatabase, isPostgres, migrateToLatest, openDatabase } from '../src/store/db.js';
import { countAuditEventsByBucket, insertAuditEvents, sumAuditDetailByBucket, type NewAuditEvent } from '../src/store/audit-events.js';

const kind = (process.argv[2] ?? 'sqlite') as DatabaseKind;
const total = Number(process.argv[3] ?? 1_000_000);
const DAY = 86_400_000;
const TYPES = ['login.succeeded', 'login.failed', 'signup', 'session.revoked', 'email.verified', 'password.changed', 'logout', 'idp.token_issued', 'profile.changed'];
const database = await createTestDatabase(kind);
const db = openDatabase(database.url);
try {
  await migrateToLatest(db);
  const now = Date.now();
  const started = performance.now();
  for (let done = 0; done < total; done += 10_000) {
    await db.transaction().execute(async (tx) => {
      for (let i = done; i < Math.min(done + 10_000, total); i += 100) {
        const batch: NewAuditEvent[] = Array.from({ length: Math.min(100, total - i) }, (_, j) => {
          const n = i + j;
          const type = n % 500 === 0 ? 'rate_limit.refused' : TYPES[n % TYPES.length]!;
          return { eventId: `evt_${n}`, occurredAt: now - Math.floor(((n * 7919) % total) / total * 60 * DAY), type, userId: n % 5000, ip: '10.0.0.1', userAgent: 'bench', outcome: 'success', detail: type === 'rate_limit.refused' ? { action: 'login', refusals: 3 } : { method: 'password' } };
        });
        await insertAuditEvents(tx, batch);
      }
    });
  }
  console.log(`${kind}: seeded ${total} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await sql`analyze`.execute(db);
  if (isPostgres(db)) await sql`vacuum audit_events`.execute(db);

  const types = ['login.succeeded', 'signup', 'login.failed'];
  const since = Math.floor(now / DAY) * DAY - 29 * DAY;
  const until = since + 30 * DAY;
  const compiled = db
    .selectFrom('audit_events')
    .select(['type', sql<number>`(occurred_at / ${sql.lit(DAY)}) * ${sql.lit(DAY)}`.as('bucket'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('type', 'in', types)
    .where('occurred_at', '>=', since)
    .where('occurred_at', '<', until)
    .groupBy(['type', sql`(occurred_at / ${sql.lit(DAY)}) * ${sql.lit(DAY)}`])
    .compile();
  let index = 0;
  const literal = compiled.sql.replace(/\$\d+|\?/g, () => {
    const value = compiled.parameters[index++];
    return typeof value === 'string' ? `'${value}'` : String(value);
  });
  const plan = await sql.raw(`${isPostgres(db) ? 'explain analyze' : 'explain query plan'} ${literal}`).execute(db);
  for (const row of plan.rows as Array<Record<string, unknown>>) console.log('  ', isPostgres(db) ? Object.values(row)[0] : row.detail);

  async function time(label: string, days: number, bucketMs: number): Promise<void> {
    const runs: number[] = [];
    let counted = 0;
    const from = Math.floor(now / bucketMs) * bucketMs - (days * DAY - bucketMs);
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      const [counts, refusals] = await Promise.all([countAuditEventsByBucket(db, types, from, from + days * DAY, bucketMs), sumAuditDetailByBucket(db, 'rate_limit.refused', 'refusals', from, from + days * DAY, bucketMs)]);
      runs.push(performance.now() - t);
      counted = counts.reduce((sum, c) => sum + c.count, 0) + refusals.reduce((sum, r) => sum + r.total, 0);
    }
    runs.sort((a, b) => a - b);
    console.log(`${kind}: ${label}: median ${runs[3]!.toFixed(1)} ms (${counted} counted)`);
  }
  await time('month by day', 30, DAY);
  await time('week by 6 h', 7, 6 * 3_600_000);
  await time('day by hour', 1, 3_600_000);
} finally {
  await closeDatabase(db);
  await database.drop();
}
