import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { codeFromMail, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import { startSmsReceiver } from '../support/sms-receiver.js';
import { PASSWORD, nextCode, pendingFlow, uniquePhone, webhookEnv } from './support.js';

// The phone stage of a login that passed another proof first, as in the
// reference, where every stage not yet handled follows the one just passed:
// verifying the address does not skip the number, nor does a code mailed to
// the address; a code texted to the number proves the number.

const sms = await startSmsReceiver();
after(() => sms.close());

const ENV = {
  ACCOUNT_SIGNUP_FIELDS: 'email*,phone*,password1*',
  ACCOUNT_LOGIN_METHODS: 'email,phone',
  ACCOUNT_EMAIL_VERIFICATION: 'mandatory',
  ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'true',
  ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true',
  ...webhookEnv(sms),
};

/** Signs up with an address and a number and verifies the address: the login then waits at the number. */
async function signedUpWithAddressVerified(server: TestServer, kind: 'browser' | 'app'): Promise<{ email: string; phone: string; client: Awaited<ReturnType<typeof readyClient>> }> {
  const client = await readyClient(server, kind);
  const email = uniqueEmail();
  const phone = uniquePhone();
  const signup = await client.post('/auth/signup', { email, phone, password: PASSWORD });
  assert.equal(signup.status, 401, JSON.stringify(signup.body));
  assert.equal(pendingFlow(signup.body), 'verify_email');
  const verified = await client.post('/auth/email/verify', { key: codeFromMail(await nthMail(server.mail, email, 1)) });
  assert.equal(verified.status, 401, JSON.stringify(verified.body));
  assert.equal(pendingFlow(verified.body), 'verify_phone');
  assert.equal(verified.body.meta.is_authenticated, false);
  return { email, phone, client };
}

describeEachDatabase('the phone stage after another proof', ENV, ({ server }) => {
  before(() => sms.clear());

  for (const kind of ['browser', 'app'] as const) {
    it(`a signup that verified its address goes on to verify its number (${kind})`, async () => {
      const { phone, client } = await signedUpWithAddressVerified(server(), kind);
      const done = await client.post('/auth/phone/verify', { code: await nextCode(sms, phone) });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.meta.is_authenticated, true);
      assert.deepEqual((await client.get('/account/phone')).body.data, [{ phone, verified: true }]);
    });
  }

  it('a login by a mailed code meets the phone stage of an unverified number', async () => {
    const { email, phone } = await signedUpWithAddressVerified(server(), 'app');
    // The first code of the signup's number is left unused.
    await nextCode(sms, phone);

    const client = await readyClient(server(), 'app');
    assert.equal((await client.post('/auth/code/request', { email })).status, 401);
    const confirmed = await client.post('/auth/code/confirm', { code: codeFromMail(await nthMail(server().mail, email, 2)) });
    assert.equal(confirmed.status, 401, JSON.stringify(confirmed.body));
    assert.equal(pendingFlow(confirmed.body), 'verify_phone');

    const done = await client.post('/auth/phone/verify', { code: await nextCode(sms, phone) });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(
      done.body.data.methods.map((m: { method: string }) => m.method),
      ['code'],
      'the login keeps its first factor through the stage',
    );
  });

  it('a login by a texted code proves the number and meets no phone stage', async () => {
    const { phone } = await signedUpWithAddressVerified(server(), 'app');
    await nextCode(sms, phone);

    const client = await readyClient(server(), 'app');
    assert.equal((await client.post('/auth/code/request', { phone })).status, 401);
    const confirmed = await client.post('/auth/code/confirm', { code: await nextCode(sms, phone) });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.meta.is_authenticated, true);
    assert.deepEqual((await client.get('/account/phone')).body.data, [{ phone, verified: true }]);
  });
});
