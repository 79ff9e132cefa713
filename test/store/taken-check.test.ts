import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { migrateToLatest } from '../../src/store/db.js';
import { createUser } from '../../src/store/users.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { serviceSkipReason } from '../support/services.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { PASSWORD } from '../support/accounts.js';

// Signup's "is this taken" check must cost the same whatever the number of
// users, also when a pooler's named statements make PostgreSQL plan it once
// for any value (plan_cache_mode = force_generic_plan): every step of its
// plans reads at most one row. Two signups racing for one address give one
// account and one clean error.

const USERS = 5000;
const generic = (url: string) => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c plan_cache_mode=force_generic_plan')}`;

interface PlanNode {
  'Node Type': string;
  'Actual Rows': number;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

function literal(value: unknown): string {
  return typeof value === 'number' ? String(value) : value === null ? 'NULL' : `'${String(value).replace(/'/g, "''")}'`;
}

describeUnlessSkipped('the taken check under a generic plan [postgres]', await serviceSkipReason('PostgreSQL'), () => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  const queries: CompiledQuery[] = [];

  before(async () => {
    database = await createTestDatabase('postgres');
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: generic(database.url), max: 1 }) }),
      log: (event) => {
        if (event.level === 'query') queries.push(event.query);
      },
    });
    await migrateToLatest(db);
    const now = Date.now();
    await sql`INSERT INTO users (username, username_lower, password_hash, created_at, password_changed_at)
              SELECT 'user' || i, 'user' || i, NULL, ${now}, ${now} FROM generate_series(1, ${USERS}::int) AS i`.execute(db);
    await sql`INSERT INTO email_addresses (user_id, email, email_lower, verified, is_primary, created_at)
              SELECT id, username || '@example.com', username_lower || '@example.com', 1, 1, ${now} FROM users`.execute(db);
    await sql`ANALYZE`.execute(db);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  /** The plans of the selects createUser ran, executed under the generic plan. */
  async function plansOf(input: { username: string | null; email: string | null }): Promise<{ result: unknown; plans: PlanNode[] }> {
    queries.length = 0;
    const result = await db.transaction().execute((tx) => createUser(tx, { ...input, passwordHash: null, emailVerified: false, now: Date.now() }));
    const selects = queries.filter((q) => /^select/i.test(q.sql));
    assert.ok(selects.length > 0, 'createUser looked before inserting');
    const plans: PlanNode[] = [];
    for (const [n, query] of selects.entries()) {
      await sql.raw(`PREPARE taken_${n} AS ${query.sql}`).execute(db);
      const explained = await sql.raw<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE taken_${n}(${query.parameters.map(literal).join(', ')})`).execute(db);
      await sql.raw(`DEALLOCATE taken_${n}`).execute(db);
      plans.push(explained.rows[0]!['QUERY PLAN'][0]!.Plan);
    }
    return { result, plans };
  }

  it('runs with the generic plan forced', async () => {
    const { rows } = await sql<{ plan_cache_mode: string }>`SHOW plan_cache_mode`.execute(db);
    assert.equal(rows[0]!.plan_cache_mode, 'force_generic_plan');
  });

  for (const [name, input, taken] of [
    ['a taken address', { username: null, email: 'USER4242@example.com' }, true],
    ['a taken username', { username: 'User17', email: 'free-1@example.com' }, true],
    ['a free address and username', { username: 'newcomer', email: 'free-2@example.com' }, false],
  ] as const) {
    it(`${name}: ${taken ? 'refused' : 'created'}, every plan step reading at most one row, by index`, async () => {
      const { result, plans } = await plansOf(input);
      assert.equal(result === null, taken);
      for (const node of plans.flatMap(nodesOf)) {
        assert.ok(node['Actual Rows'] <= 1, `${node['Node Type']} on ${node['Relation Name'] ?? '-'} read ${node['Actual Rows']} rows`);
        assert.notEqual(node['Node Type'], 'Seq Scan', `a sequential scan of ${node['Relation Name']}`);
      }
    });
  }
});

describeUnlessSkipped('two signups racing for one address [postgres]', await serviceSkipReason('PostgreSQL'), () => {
  let database: TestDatabase;
  let server: TestServer;
  before(async () => {
    database = await createTestDatabase('postgres');
    server = await startTestServer('postgres', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, { database: { ...database, url: generic(database.url) } });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('give one account and one email_taken error', async () => {
    for (let i = 0; i < 5; i++) {
      const email = `race-${i}@example.com`;
      const answers = await Promise.all([0, 1].map(() => server.client('app').post('/auth/signup', { email, password: PASSWORD })));
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [200, 400], JSON.stringify(answers.map((a) => a.body)));
      const refused = answers.find((a) => a.status === 400)!;
      assert.deepEqual(refused.body.errors.map((e: { code: string; param: string }) => [e.code, e.param]), [['email_taken', 'email']]);
      const owners = await server.app.deps.db.selectFrom('email_addresses').select('user_id').where('email_lower', '=', email).execute();
      assert.equal(owners.length, 1);
    }
  });
});
