import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { codeFromMail, nthMail, PASSWORD, uniqueEmail } from '../support/accounts.js';
import { startSmsReceiver } from '../support/sms-receiver.js';
import { nextCode, pendingFlow, uniquePhone, webhookEnv } from '../phone/support.js';
import { tracedClient, UserTrail, type TracedClient } from './support.js';

// A number changed or verified by a texted code, and a login by a mailed code
// (which verifies the address it reached): their events on a listening server.

const sms = await startSmsReceiver();
after(() => sms.close());

const ENV = {
  ACCOUNT_SIGNUP_FIELDS: 'email*,phone,password1*',
  // Addresses stay unverified at signup, so the code login verifies one.
  ACCOUNT_EMAIL_VERIFICATION: 'none',
  ACCOUNT_LOGIN_METHODS: 'email,phone',
  ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true',
  ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: 'true',
  TRUSTED_PROXY_COUNT: '1',
  ...webhookEnv(sms),
};

async function signedUp(server: TestServer): Promise<{ client: TracedClient; email: string; trail: UserTrail }> {
  const client = await tracedClient(server, 'app');
  const email = uniqueEmail('audit-code');
  const signup = await client.post('/auth/signup', { email, password: PASSWORD });
  assert.equal(signup.status, 200, JSON.stringify(signup.body));
  const trail = new UserTrail(server, signup.body.data.user.id);
  await trail.skip();
  return { client, email, trail };
}

/** An account whose number is still unverified: its signup stops at the verify_phone stage, its code unused. */
async function signedUpWithPhone(server: TestServer): Promise<{ client: TracedClient; phone: string; code: string; trail: UserTrail }> {
  const client = await tracedClient(server, 'app');
  const phone = uniquePhone();
  const signup = await client.post('/auth/signup', { email: uniqueEmail('audit-phone'), phone, password: PASSWORD });
  assert.equal(signup.status, 401, JSON.stringify(signup.body));
  assert.equal(pendingFlow(signup.body), 'verify_phone');
  const code = await nextCode(sms, phone);
  const [user] = await server.app.deps.db.selectFrom('phone_numbers').select('user_id').where('phone', '=', phone).execute();
  const trail = new UserTrail(server, user!.user_id);
  await trail.skip();
  return { client, phone, code, trail };
}

describeEachDatabase('audit events of phone numbers and login codes', ENV, ({ server }) => {
  it('records a number changed once its texted code confirms it', async () => {
    const { client, trail } = await signedUp(server());
    assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    await trail.skip();
    const phone = uniquePhone();
    assert.equal((await client.post('/account/phone', { phone })).status, 202);
    const code = await nextCode(sms, phone);
    // Not the account's number yet: a wrong code changes nothing.
    assert.equal((await client.post('/auth/phone/verify', { code: code === 'AAAAAA' ? 'CCCCCC' : 'AAAAAA' })).status, 400);
    await trail.expect(server().clock.now());
    assert.equal((await client.post('/auth/phone/verify', { code })).status, 200);
    await trail.expect(server().clock.now(), { type: 'phone.changed', from: client, detail: { phone } });
  });

  it('records a wrong login code, then the login by code and the address it verified', async () => {
    const { email, trail } = await signedUp(server());
    const client = await tracedClient(server(), 'browser');
    assert.equal((await client.post('/auth/code/request', { email })).status, 401);
    const code = codeFromMail(await nthMail(server().mail, email, 1));
    assert.equal((await client.post('/auth/code/confirm', { code: code === 'CCCCCC' ? 'DDDDDD' : 'CCCCCC' })).status, 400);
    await trail.expect(server().clock.now(), { type: 'login.failed', from: client, outcome: 'failure', detail: { method: 'code', reason: 'invalid_code' } });
    assert.equal((await client.post('/auth/code/confirm', { code })).status, 200);
    await trail.expect(
      server().clock.now(),
      // The code proves the address before the login goes on (its stages see it verified).
      { type: 'email.verified', from: client, detail: { email, method: 'code' } },
      { type: 'login.succeeded', from: client, detail: { method: 'code' } },
    );
    // A second code login finds the address verified: no second email.verified.
    const again = await tracedClient(server(), 'app');
    assert.equal((await again.post('/auth/code/request', { email })).status, 401);
    assert.equal((await again.post('/auth/code/confirm', { code: codeFromMail(await nthMail(server().mail, email, 2)) })).status, 200);
    await trail.expect(server().clock.now(), { type: 'login.succeeded', from: again, detail: { method: 'code' } });
  });

  it("regression: records the number a signup's texted code verifies (issue 22)", async () => {
    const { client, phone, code, trail } = await signedUpWithPhone(server());
    assert.equal((await client.post('/auth/phone/verify', { code: code === 'AAAAAA' ? 'CCCCCC' : 'AAAAAA' })).status, 400);
    await trail.expect(server().clock.now());
    assert.equal((await client.post('/auth/phone/verify', { code })).status, 200);
    await trail.expect(
      server().clock.now(),
      { type: 'phone.verified', from: client, detail: { phone, method: 'code' } },
      { type: 'login.succeeded', from: client, detail: { method: 'signup' } },
    );
  });

  it('regression: records the number a login by texted code verifies, once (issue 22)', async () => {
    const { phone, trail } = await signedUpWithPhone(server());
    for (const expectVerified of [true, false]) {
      const client = await tracedClient(server(), 'browser');
      assert.equal((await client.post('/auth/code/request', { phone })).status, 401);
      assert.equal((await client.post('/auth/code/confirm', { code: await nextCode(sms, phone) })).status, 200);
      await trail.expect(
        server().clock.now(),
        ...(expectVerified ? [{ type: 'phone.verified', from: client, detail: { phone, method: 'code' } }] : []),
        { type: 'login.succeeded', from: client, detail: { method: 'code' } },
      );
    }
  });

  it('regression: records the number a password reset by texted code verifies, once (issue 22)', async () => {
    const { phone, trail } = await signedUpWithPhone(server());
    for (const [i, expectVerified] of [true, false].entries()) {
      const client = await tracedClient(server(), 'app');
      assert.equal((await client.post('/auth/password/request', { phone })).status, 401);
      const reset = await client.post('/auth/password/reset', { key: await nextCode(sms, phone), password: `${PASSWORD} ${i}` });
      assert.equal(reset.status, 401, JSON.stringify(reset.body));
      await trail.expect(
        server().clock.now(),
        { type: 'password.reset', from: client, detail: { method: 'code' } },
        ...(expectVerified ? [{ type: 'phone.verified', from: client, detail: { phone, method: 'password_reset' } }] : []),
      );
    }
  });
});
