import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { assertError } from '../support/accounts.js';
import { pendingSecondFactor, recoveryCodes, totpAccount, totpAt, verifiedAccount } from './support.js';

// TOTP secrets and recovery-code seeds are sealed (AES-256-GCM under a key
// derived from SECRET_KEY, named by its key id): a database dump alone gives
// no working second factor, and SECRET_KEY rotates without locking anyone out.

const OLD_SECRET = 'mfa-old-secret-key-before-rotation-0123456789';
const NEW_SECRET = 'mfa-new-secret-key-after-rotation-0123456789';
const OTHER_SECRET = 'mfa-unrelated-secret-key-nobody-has-012345678';

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`MFA secrets at rest [${kind}]`, skip, () => {
    let database: TestDatabase;
    let server: TestServer | undefined;
    const start = async (secretKey: string, fallbacks?: string) => {
      await server?.close();
      server = await startTestServer(kind, { SECRET_KEY: secretKey, ...(fallbacks ? { SECRET_KEY_FALLBACKS: fallbacks } : {}) }, { database });
      return server;
    };
    const rows = () => server!.app.deps.db.selectFrom('mfa_authenticators').selectAll().orderBy('id').execute();
    before(async () => {
      database = await createTestDatabase(kind);
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });

    let account: { email: string; secret: string; codes: string[] };

    it('stores sealed secrets only: no TOTP secret, seed or code in the tables', async () => {
      const first = await start(OLD_SECRET);
      const { client, email, secret } = await totpAccount(first, 'app');
      const codes = await recoveryCodes(client);
      // A secret offered for setup and not yet activated is kept sealed too.
      const other = await verifiedAccount(first, 'app');
      const offered = (await other.client.get('/account/authenticators/totp')).body.meta.secret;

      const authenticators = await rows();
      assert.deepEqual(authenticators.map((r) => r.type), ['totp', 'recovery_codes']);
      for (const row of authenticators) assert.match(row.secret!, /^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
      const dump = JSON.stringify([authenticators, await first.app.deps.db.selectFrom('mfa_challenges').selectAll().execute()]);
      for (const value of [secret, offered, ...codes]) assert.ok(!dump.includes(value), `${value} is not in the tables`);
      account = { email, secret, codes };
    });

    it('a different SECRET_KEY opens nothing: the second factor cannot be passed', async () => {
      const other = await start(OTHER_SECRET);
      const client = await pendingSecondFactor(other, 'app', account.email);
      assertError(await client.post('/auth/2fa/authenticate', { code: totpAt(other, account.secret) }), 400, 'incorrect_code', 'code');
      assertError(await client.post('/auth/2fa/authenticate', { code: account.codes[0] }), 400, 'incorrect_code', 'code');
    });

    it('rotates: with the old key as a fallback codes work, and each use re-seals under the new key', async () => {
      const before = await rows();
      const rotated = await start(NEW_SECRET, OLD_SECRET);
      const keyId = (sealed: string | null) => sealed?.split('.')[1];
      const totp = await pendingSecondFactor(rotated, 'app', account.email);
      assert.equal((await totp.post('/auth/2fa/authenticate', { code: totpAt(rotated, account.secret) })).status, 200);
      const recovery = await pendingSecondFactor(rotated, 'app', account.email);
      assert.equal((await recovery.post('/auth/2fa/authenticate', { code: account.codes[1] })).status, 200);
      const after = await rows();
      for (const row of after.filter((r) => r.user_id === before[0]!.user_id)) {
        const old = before.find((r) => r.id === row.id)!;
        assert.notEqual(keyId(row.secret), keyId(old.secret), `${row.type} re-sealed under the new key`);
      }
      // Without the old key the re-sealed secrets still open.
      const only = await start(NEW_SECRET);
      const later = await pendingSecondFactor(only, 'app', account.email);
      assert.equal((await later.post('/auth/2fa/authenticate', { code: account.codes[2] })).status, 200);
    });
  });
}

