import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, codeFromMail, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import { startSmsReceiver } from '../support/sms-receiver.js';
import { PHONE_ONLY, nextCode, phoneAccount, webhookEnv } from '../phone/support.js';
import { enableTotp, pendingFlow, totpAccount, totpAt } from './support.js';

// The second factor after phone-based first factors, and what MFA changes
// about email management.

const sms = await startSmsReceiver();
after(() => sms.close());

describeEachDatabase('second factor after a phone', { ...PHONE_ONLY, ...webhookEnv(sms), ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true' }, ({ server }) => {
  before(() => sms.clear());

  for (const kind of ['app', 'browser'] as const) {
    it(`a code texted to the number, then the second factor (${kind})`, async () => {
      const { client: owner, phone } = await phoneAccount(server(), sms, kind);
      assert.equal((await owner.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
      const secret = await enableTotp(server(), owner);

      const client = await readyClient(server(), kind);
      assert.equal((await client.post('/auth/code/request', { phone })).status, 401);
      const confirmed = await client.post('/auth/code/confirm', { code: await nextCode(sms, phone) });
      assert.equal(confirmed.status, 401, JSON.stringify(confirmed.body));
      assert.equal(pendingFlow(confirmed.body)?.id, 'mfa_authenticate');
      const done = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
      assert.equal(done.status, 200);
      assert.deepEqual(done.body.data.methods.map((m: any) => [m.method, m.phone]), [['code', phone], ['mfa', undefined]]);

      const byPassword = await (await readyClient(server(), kind)).post('/auth/login', { phone, password: PASSWORD });
      assert.equal(byPassword.status, 401);
      assert.equal(pendingFlow(byPassword.body)?.id, 'mfa_authenticate');
    });
  }
});

describeEachDatabase('email addresses under MFA', {}, ({ server }) => {
  it('refuses a new address once MFA is on: add_email_blocked', async () => {
    const { client } = await totpAccount(server(), 'app');
    assertError(await client.post('/account/email', { email: uniqueEmail('new') }), 400, 'add_email_blocked', 'email');
    assert.equal((await client.get('/account/email')).body.data.length, 1);
  });
});

describeEachDatabase('email addresses under MFA, verified by code', { ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'true' }, ({ server }) => {
  it('adds addresses: a code typed in proves them at once', async () => {
    const account = await readyClient(server(), 'app');
    const email = uniqueEmail('bycode');
    assert.equal((await account.post('/auth/signup', { email, password: PASSWORD })).status, 200);
    // Verified by the code the signup mailed, while logged in.
    assert.equal((await account.post('/auth/email/verify', { key: codeFromMail(await nthMail(server().mail, email, 1)) })).status, 200);
    assert.equal((await account.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    await enableTotp(server(), account);
    assert.equal((await account.post('/account/email', { email: uniqueEmail('added') })).status, 200);
  });
});
