import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Migrator } from 'kysely';
import { closeDatabase, openDatabase } from '../../src/store/db.js';
import { migrations } from '../../src/store/migrations/index.js';
import { sessionKeyDigest } from '../../src/security/secrets.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { describeUnlessSkipped } from '../support/suites.js';

// Migration 008 stores session keys as 32 raw bytes instead of hex text.
// Sessions that existed before it must keep working: an app's token, and a
// browser's cookie with the CSRF token bound to it.

const APP_KEY = 'app-session-key-made-before-migration-008';
const BROWSER_KEY = 'browser-session-key-made-before-migration-008';
const EMAIL = 'before-008@example.com';

/**
 * A database as deployed before 008 existed: every other migration applied,
 * 009 included (so 008 arrives after a later one), with a user and two
 * sessions written the way the code of then wrote them.
 */
async function databaseBefore008(database: TestDatabase): Promise<void> {
  const db = openDatabase(database.url);
  try {
    const earlier = Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== '008_session_keys'));
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => earlier } }).migrateToLatest();
    if (error) throw error;
    const now = Date.now();
    const user = await db.insertInto('users').values({ username: null, username_lower: null, password_hash: null, created_at: now, password_changed_at: now }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('email_addresses').values({ user_id: user.id, email: EMAIL, email_lower: EMAIL, verified: 1, is_primary: 1, created_at: now }).execute();
    for (const key of [APP_KEY, BROWSER_KEY]) {
      const hexDigest = createHash('sha256').update(key).digest('hex');
      await db
        .insertInto('sessions')
        // The old column held the hex digest as text.
        .values({ key_hash: hexDigest as unknown as Buffer, user_id: user.id, methods: JSON.stringify([{ method: 'password', at: now / 1000 }]), flow: null, flow_attempts: 0, created_at: now, last_seen_at: now, expires_at: now + 3_600_000, ip: '127.0.0.1', user_agent: 'test' })
        .execute();
    }
  } finally {
    await closeDatabase(db);
  }
}

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`sessions made before migration 008 [${kind}]`, skip, () => {
    let database: TestDatabase;
    let server: TestServer;
    before(async () => {
      database = await createTestDatabase(kind);
      await databaseBefore008(database);
      server = await startTestServer(kind, {}, { database });
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });

    it('stores every key as its 32-byte digest', async () => {
      const rows = await server.app.deps.db.selectFrom('sessions').select('key_hash').orderBy('id').execute();
      assert.deepEqual(
        rows.map((r) => Buffer.from(r.key_hash).toString('hex')),
        [APP_KEY, BROWSER_KEY].map((key) => sessionKeyDigest(key).toString('hex')),
      );
    });

    it("an app's session token still authenticates", async () => {
      const app = server.client('app');
      app.sessionToken = APP_KEY;
      const me = await app.get('/auth/session');
      assert.equal(me.status, 200);
      assert.equal(me.body.data.user.email, EMAIL);
    });

    it("a browser's cookie still authenticates, and a CSRF token bound to it is accepted", async () => {
      const browser = server.client('browser');
      browser.cookies.set('sessionid', BROWSER_KEY);
      const me = await browser.get('/auth/session');
      assert.equal(me.status, 200);
      assert.equal(me.body.data.user.email, EMAIL);
      // The CSRF cookie that answer set is bound to this session: logging out with it works.
      const logout = await browser.delete('/auth/session');
      assert.equal(logout.status, 401);
      assert.equal(logout.body.meta.is_authenticated, false);
    });
  });
}
