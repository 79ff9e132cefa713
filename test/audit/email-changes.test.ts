import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { keyFromMail, nthMail, PASSWORD, uniqueEmail } from '../support/accounts.js';
import { tracedClient, UserTrail, type TracedClient } from './support.js';

// What verifying or adding an address changes besides itself: the primary
// address, and under ACCOUNT_CHANGE_EMAIL the addresses it replaces. Each is
// an event of its own, written by the request that caused it.

async function signedUp(server: TestServer): Promise<{ client: TracedClient; email: string; trail: UserTrail }> {
  const client = await tracedClient(server, 'app');
  const email = uniqueEmail('audit-mail');
  const signup = await client.post('/auth/signup', { email, password: PASSWORD });
  assert.equal(signup.status, 200, JSON.stringify(signup.body));
  const trail = new UserTrail(server, signup.body.data.user.id);
  await trail.expect(
    server.clock.now(),
    { type: 'signup', from: client, detail: { method: 'password', email } },
    { type: 'login.succeeded', from: client, detail: { method: 'signup' } },
  );
  return { client, email, trail };
}

describeEachDatabase('audit events of an email change', { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_CHANGE_EMAIL: 'true', TRUSTED_PROXY_COUNT: '1' }, ({ server }) => {
  it('records the waiting address a new one replaces, and the old address and new primary once it is verified', async () => {
    const { client, email, trail } = await signedUp(server());
    const abandoned = uniqueEmail('abandoned');
    const target = uniqueEmail('target');
    assert.equal((await client.post('/account/email', { email: abandoned })).status, 200);
    await trail.expect(server().clock.now(), { type: 'email.added', from: client, detail: { email: abandoned } });
    assert.equal((await client.post('/account/email', { email: target })).status, 200);
    await trail.expect(
      server().clock.now(),
      { type: 'email.removed', from: client, detail: { email: abandoned, reason: 'replaced' } },
      { type: 'email.added', from: client, detail: { email: target } },
    );

    // The link may be opened anywhere (here logged out, so 401 after verifying): the events name the client that opened it.
    const opener = await tracedClient(server(), 'browser');
    const key = keyFromMail(await nthMail(server().mail, target, 1));
    assert.equal((await opener.post('/auth/email/verify', { key })).status, 401);
    await trail.expect(
      server().clock.now(),
      { type: 'email.verified', from: opener, detail: { email: target } },
      { type: 'email.primary_changed', from: opener, detail: { email: target } },
      { type: 'email.removed', from: opener, detail: { email, reason: 'replaced' } },
    );
    assert.deepEqual((await client.get('/account/email')).body.data, [{ email: target, primary: true, verified: true }]);
  });
});

describeEachDatabase('audit events of a verification that settles the primary address', { ACCOUNT_EMAIL_VERIFICATION: 'none', TRUSTED_PROXY_COUNT: '1' }, ({ server }) => {
  it('records the verified address becoming primary when the account had none', async () => {
    const { client, trail } = await signedUp(server());
    const second = uniqueEmail('second');
    assert.equal((await client.post('/account/email', { email: second })).status, 200);
    await trail.expect(server().clock.now(), { type: 'email.added', from: client, detail: { email: second } });
    // The API never leaves an account without a primary address; a database
    // written by hand or by another program can, and verifying settles it.
    await server().app.deps.db.updateTable('email_addresses').set({ is_primary: 0 }).where('user_id', '=', trail.userId).execute();

    const key = keyFromMail(await nthMail(server().mail, second, 1));
    assert.equal((await client.post('/auth/email/verify', { key })).status, 200);
    await trail.expect(
      server().clock.now(),
      { type: 'email.verified', from: client, detail: { email: second } },
      { type: 'email.primary_changed', from: client, detail: { email: second } },
    );
    assert.equal((await client.get('/auth/session')).body.data.user.email, second);
  });
});
