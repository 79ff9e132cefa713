import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, readyClient } from '../support/accounts.js';
import { CLIENTS, loggedInUser, loginClient } from './helpers.js';

describeEachDatabase('account deletion', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`deletes the account, its sessions, and frees the address (${kind})`, async () => {
      const { client, email } = await loggedInUser(server(), kind);
      const elsewhere = await loginClient(server(), 'app', email);
      const { id: userId } = (await client.get('/auth/session')).body.data.user;

      const deleted = await client.delete('/account');
      assert.equal(deleted.status, 401);
      assert.equal(deleted.body.meta.is_authenticated, false);
      assert.equal(deleted.body.meta.session_token, undefined);
      if (kind === 'browser') assert.equal(client.cookies.get('sessionid'), undefined);
      assert.equal((await client.get('/auth/session')).status, kind === 'app' ? 410 : 401);
      assert.equal((await elsewhere.get('/auth/session')).status, 410);

      const login = await (await readyClient(server(), kind)).post('/auth/login', { email, password: PASSWORD });
      assertError(login, 400, 'email_password_mismatch', 'password');
      const rows = await server().app.deps.db.selectFrom('account_deletions').selectAll().where('user_id', '=', userId).execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.ip, '127.0.0.1');
      // The address can sign up again, as a new account.
      const again = await loggedInUser(server(), kind, email);
      assert.notEqual((await again.client.get('/auth/session')).body.data.user.id, userId);
    });
  }

  it('needs a recent authentication', async () => {
    const { client, email } = await loggedInUser(server(), 'app');
    server().clock.advance(301_000);
    const refused = await client.delete('/account');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.meta.is_authenticated, true);
    assert.deepEqual(refused.body.data.flows, [{ id: 'reauthenticate' }]);
    assert.equal((await client.get('/auth/session')).body.data.user.email, email);

    assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    assert.equal((await client.delete('/account')).status, 401);
    assert.equal((await client.get('/auth/session')).status, 410);
  });

  it('answers 401 when not logged in', async () => {
    const response = await server().client('app').delete('/account');
    assert.equal(response.status, 401);
    assert.equal(response.body.meta.is_authenticated, false);
  });

  it('is documented in the OpenAPI description', async () => {
    const response = await fetch(`${server().baseUrl}/_service/openapi.json`);
    const spec = (await response.json()) as { paths: Record<string, Record<string, { summary?: string; description?: string }>> };
    for (const client of CLIENTS) {
      const operation = spec.paths[`/_service/${client}/v1/account`]?.delete;
      assert.ok(operation, `DELETE /account is documented for ${client}`);
      assert.match(operation.description ?? '', /reauthenticate/);
      assert.ok(spec.paths[`/_service/${client}/v1/auth/sessions`]?.delete);
      assert.ok(spec.paths[`/_service/${client}/v1/account/email`]?.patch);
      assert.ok(spec.paths[`/_service/${client}/v1/auth/password/reset`]?.get);
    }
  });
});
