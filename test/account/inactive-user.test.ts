import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { PASSWORD, assertError, codeFromMail, keyFromMail, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import { CLIENTS, resetKeyFromMail } from './helpers.js';
import { pendingSecondFactor, totpAccount, totpAt } from '../mfa/support.js';
import { jwtEnv } from '../tokens/support.js';

// Issue 22 item 9: a user deactivated while a login of theirs is half-way
// (waiting for a mailed key or code, a second factor, a reset) must not end
// up logged in by finishing it. Every path that completes a login checks.

async function deactivate(server: TestServer, email: string): Promise<void> {
  const { db } = server.app.deps;
  const address = await db.selectFrom('email_addresses').select('user_id').where('email_lower', '=', email.toLowerCase()).executeTakeFirstOrThrow();
  await db.updateTable('users').set({ is_active: 0 }).where('id', '=', address.user_id).execute();
}

async function notLoggedIn(client: Awaited<ReturnType<typeof readyClient>>): Promise<void> {
  const session = await client.get('/auth/session');
  assert.ok(session.status === 401 || session.status === 410, JSON.stringify(session.body));
  assert.notEqual(session.body.meta?.is_authenticated, true);
}

describeEachDatabase(
  'regression: verifying an address does not complete the login of a user deactivated meanwhile (issue 22 item 9)',
  { ACCOUNT_EMAIL_VERIFICATION: 'mandatory' },
  ({ server }) => {
    for (const kind of CLIENTS) {
      it(`by key (${kind})`, async () => {
        const email = uniqueEmail('inactive');
        const client = await readyClient(server(), kind);
        assert.equal((await client.post('/auth/signup', { email, password: PASSWORD })).status, 401);
        const key = keyFromMail(await nthMail(server().mail, email, 1));
        await deactivate(server(), email);
        const verified = await client.post('/auth/email/verify', { key });
        assertError(verified, 400, 'account_inactive');
        assert.equal(verified.body.meta?.access_token, undefined);
        await notLoggedIn(client);
      });
    }
  },
);

describeEachDatabase(
  'regression: a mailed code does not complete the login of a user deactivated meanwhile (issue 22 item 9)',
  jwtEnv({ ACCOUNT_EMAIL_VERIFICATION: 'mandatory', ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'true' }),
  ({ server }) => {
    it('email verification by code, with JWTs on: no tokens are issued', async () => {
      const email = uniqueEmail('inactive');
      const client = await readyClient(server(), 'app');
      assert.equal((await client.post('/auth/signup', { email, password: PASSWORD })).status, 401);
      const code = codeFromMail(await nthMail(server().mail, email, 1));
      await deactivate(server(), email);
      const verified = await client.post('/auth/email/verify', { key: code });
      assertError(verified, 400, 'account_inactive');
      assert.equal(verified.body.meta?.access_token, undefined);
      assert.equal(verified.body.meta?.refresh_token, undefined);
      await notLoggedIn(client);
    });
  },
);

describeEachDatabase(
  'inactive users and login by code (issue 22 item 9)',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true' },
  ({ server }) => {
    for (const kind of CLIENTS) {
      it(`a code requested before the deactivation does not log in (${kind})`, async () => {
        const email = uniqueEmail('inactive');
        assert.equal((await server().client('app').post('/auth/signup', { email, password: PASSWORD })).status, 200);
        const client = await readyClient(server(), kind);
        assert.equal((await client.post('/auth/code/request', { email })).status, 401);
        const code = codeFromMail(await nthMail(server().mail, email, 1));
        await deactivate(server(), email);
        assert.equal((await client.post('/auth/code/confirm', { code })).status, 409);
        await notLoggedIn(client);
        const trail = await server().app.deps.db.selectFrom('audit_events').select(['type', 'detail']).where('type', '=', 'login.failed').execute();
        assert.ok(trail.some((e) => String(e.detail).includes('inactive')), 'the refusal is in the audit trail');
      });
    }
  },
);

describeEachDatabase('inactive users and the second factor (issue 22 item 9)', { ACCOUNT_EMAIL_VERIFICATION: 'optional' }, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`a right code after the deactivation does not log in (${kind})`, async () => {
      const { email, secret } = await totpAccount(server(), kind);
      const client = await pendingSecondFactor(server(), kind, email);
      await deactivate(server(), email);
      const done = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
      assert.equal(done.status, 401, JSON.stringify(done.body));
      await notLoggedIn(client);
    });
  }
});

describeEachDatabase(
  'inactive users and password reset (issue 22 item 9)',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_LOGIN_ON_PASSWORD_RESET: 'true' },
  ({ server }) => {
    it('a reset key mailed before the deactivation neither resets nor logs in', async () => {
      const email = uniqueEmail('inactive');
      assert.equal((await server().client('app').post('/auth/signup', { email, password: PASSWORD })).status, 200);
      const client = await readyClient(server(), 'browser');
      assert.equal((await client.post('/auth/password/request', { email })).status, 200);
      const key = resetKeyFromMail(await nthMail(server().mail, email, 1));
      await deactivate(server(), email);
      assertError(await client.post('/auth/password/reset', { key, password: 'another long passphrase' }), 400, 'invalid_password_reset', 'key');
      await notLoggedIn(client);
    });
  },
);
