// How the admin API's user queries (store/users.ts listUserOverviews) cost
// at scale: seeds N users (default 1,000,000) into a fresh database and times
// the first page, a page deep in the middle and near the end, and the exact
// lookups by address and username, the other orders of the list and its
// totals, each the median of several runs.
//   node --import tsx bench/admin-paging.ts sqlite [N]
//   node --import tsx bench/admin-paging.ts postgres [N]   (TEST_POSTGRES_URL's server)
import { performance } from 'node:perf_hooks';
import { createTestDatabase, type DatabaseKind } from '../test/support/databases.js';
import { sql } from 'kysely';
import { closeDatabase, isPostgres, migrateToLatest, openDatabase } from '../src/store/db.js';
import { countUsers, insertUsersInBulk, listUserOverviews, listUserQuery, type UserQuery } from '../src/store/users.js';

const kind = (process.argv[2] ?? 'sqlite') as DatabaseKind;
const total = Number(process.argv[3] ?? 1_000_000);
const database = await createTestDatabase(kind);
const db = openDatabase(database.url);
try {
  await migrateToLatest(db);
  const started = performance.now();
  const now = Date.now();
  for (let done = 0; done < total; done += 50_000) {
    const batch = Array.from({ length: Math.min(50_000, total - done) }, (_, i) => ({ username: `u${done + i}`, email: `u${done + i}@example.com`, verified: true }));
    await db.transaction().execute((tx) => insertUsersInBulk(tx, batch, now));
  }
  console.log(`${kind}: seeded ${total} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Statistics as a database in service has them (autovacuum would gather them in a while).
  await sql`analyze`.execute(db);
  if (process.env.EXPLAIN && isPostgres(db)) {
    const compiled = listUserQuery(db, { afterId: Math.floor(total / 2), limit: 50 });
    const plan = await sql.raw(`explain analyze ${compiled.sql.replace(/\$(\d+)/g, (_, n) => JSON.stringify(compiled.parameters[Number(n) - 1]))}`).execute(db);
    for (const row of plan.rows as Array<Record<string, string>>) console.log(Object.values(row)[0]);
  }

  async function time(label: string, query: UserQuery): Promise<void> {
    const runs: number[] = [];
    let found = 0;
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      found = (await listUserOverviews(db, query)).length;
      runs.push(performance.now() - t);
    }
    runs.sort((a, b) => a - b);
    console.log(`${label.padEnd(34)} ${runs[3]!.toFixed(2).padStart(8)} ms  (${found} rows)`);
  }
  await time('first page of 50', { afterId: 0, limit: 50 });
  await time('page of 50 after the middle id', { afterId: Math.floor(total / 2), limit: 50 });
  await time('page of 50 near the end', { afterId: total - 60, limit: 50 });
  await time('page of 500 after the middle id', { afterId: Math.floor(total / 2), limit: 500 });
  await time('exact address (the last user)', { afterId: 0, limit: 50, email: `u${total - 1}@example.com` });
  await time('exact username (the last user)', { afterId: 0, limit: 50, username: `u${total - 1}` });
  await time('inactive users after the middle', { afterId: Math.floor(total / 2), limit: 50, active: false });
  const middle = { key: now, id: Math.floor(total / 2), backward: false };
  await time('newest first, first page', { order: '-created_at', limit: 50 });
  await time('newest first, after the middle', { order: '-created_at', limit: 50, position: middle });
  await time('oldest first, before the middle', { order: 'created_at', limit: 50, position: { ...middle, backward: true } });
  await time('last login, after the middle', { order: '-last_login_at', limit: 50, position: { key: 0, id: middle.id, backward: false } });
  for (const [label, filters] of [['count: every user', {}], ['count: inactive', { active: false }], ['count: verified', { verified: true }]] as const) {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await countUsers(db, filters);
      runs.push(performance.now() - t);
    }
    runs.sort((a, b) => a - b);
    console.log(`${label.padEnd(34)} ${runs[2]!.toFixed(2).padStart(8)} ms`);
  }
} finally {
  await closeDatabase(db);
  await database.drop();
}
