import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { uniqueEmail } from '../support/accounts.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from './support.js';
import { insertUsersInBulk } from '../../src/store/users.js';
import { cliJson } from '../cli/support.js';

// The admin API at scale and across instances: paging through 10,000 users
// while others are created meanwhile (no user missing, none twice), and two
// servers on one database, where a key revoked with the CLI is refused by
// both at once (each looks the key up on every request, nothing cached).

const ENV = { ADMIN_PORT: '0' };
const SEEDED = 10_000;

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`admin API at scale [${kind}]`, skip, () => {
    let first: TestServer;
    let second: TestServer;
    let firstUrl: string;
    let secondUrl: string;
    before(async () => {
      first = await startTestServer(kind, ENV);
      // The second instance on the first one's database, as a deployment runs several.
      second = await startTestServer(kind, ENV, { database: { url: first.app.deps.config.databaseUrl, drop: async () => {} } });
      firstUrl = await adminUrl(first);
      secondUrl = await adminUrl(second);
    });
    after(async () => {
      await second?.close();
      await first?.close();
    });

    it(`pages through ${SEEDED} users without gaps or repeats while users are created`, async () => {
      const tag = `seed${Date.now().toString(36)}`;
      const seeded = await first.app.deps.db.transaction().execute((tx) =>
        insertUsersInBulk(tx, Array.from({ length: SEEDED }, (_, i) => ({ username: `${tag}_${i}`, email: `${tag}_${i}@example.com`, verified: i % 2 === 0 })), Date.now()),
      );
      assert.equal(new Set(seeded).size, SEEDED);
      const writer = new AdminClient(firstUrl, (await newKey(first, 'write')).secret);
      const reader = new AdminClient(secondUrl, (await newKey(first, 'read')).secret);

      // Creates users on the first instance until the paging on the second is done.
      let paging = true;
      let created = 0;
      const creating = (async () => {
        while (paging) {
          const made = await writer.post('/users', { email: uniqueEmail('during') });
          assert.equal(made.status, 201, JSON.stringify(made.body));
          created++;
        }
      })();

      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      try {
        do {
          const page = await reader.get(`/users?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
          assert.equal(page.status, 200, JSON.stringify(page.body));
          seen.push(...page.body.data.map((u: any) => u.id));
          cursor = page.body.meta.next_cursor;
          pages++;
        } while (cursor);
      } finally {
        paging = false;
        await creating;
      }
      assert.ok(created > 0, 'no user was created while paging');
      assert.equal(new Set(seen).size, seen.length, 'a user appeared twice');
      assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'pages out of order');
      const shown = new Set(seen);
      const missing = seeded.filter((id) => !shown.has(id));
      assert.deepEqual(missing, [], `${missing.length} seeded users missing`);
      assert.ok(pages >= SEEDED / 500);
    });

    it('finds one user among them by address, username and id as fast as any', async () => {
      const reader = new AdminClient(firstUrl, (await newKey(first, 'read')).secret);
      const [user] = (await reader.get('/users?limit=1&cursor=' + Buffer.from('v1:5000').toString('base64url'))).body.data;
      for (const query of [`email=${encodeURIComponent(user.email)}`, `username=${user.username}`, `id=${user.id}`]) {
        const found = await reader.get(`/users?${query}`);
        assert.deepEqual(found.body.data.map((u: any) => u.id), [user.id], query);
        assert.equal(found.body.meta.next_cursor, null);
      }
    });

    it('refuses a key revoked with the CLI at once on every instance', async () => {
      const key = await newKey(first, 'read');
      const one = new AdminClient(firstUrl, key.secret);
      const two = new AdminClient(secondUrl, key.secret);
      assert.equal((await one.get('/users?limit=1')).status, 200);
      assert.equal((await two.get('/users?limit=1')).status, 200);
      const revoked = await cliJson(first.app.deps.config.databaseUrl, ['admin-keys', 'revoke', String(key.id)]);
      assert.equal(revoked.state, 'revoked');
      assertAdminError(await two.get('/users?limit=1'), 401, 'invalid_api_key');
      assertAdminError(await one.get('/users?limit=1'), 401, 'invalid_api_key');
    });
  });
}
