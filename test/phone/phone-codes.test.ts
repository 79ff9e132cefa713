import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { assertError, readyClient } from '../support/accounts.js';
import { startSmsReceiver } from '../support/sms-receiver.js';
import { PASSWORD, PHONE_ONLY, formatted, nextCode, pendingFlow, phoneAccount, uniquePhone, webhookEnv } from './support.js';

// Login by code and password reset by code through SMS, for phone-only accounts.

const sms = await startSmsReceiver();
after(() => sms.close());

const CLIENTS = ['browser', 'app'] as const;
const ENV = { ...PHONE_ONLY, ...webhookEnv(sms), ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true', ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: 'true' };

describeEachDatabase('login and password reset by SMS code', ENV, ({ server }) => {
  before(() => sms.clear());

  for (const kind of CLIENTS) {
    it(`logs in with a code texted to the number (${kind})`, async () => {
      const { phone } = await phoneAccount(server(), sms, 'app');
      const client = await readyClient(server(), kind);
      const request = await client.post('/auth/code/request', { phone: formatted(phone) });
      assert.equal(request.status, 401);
      assert.equal(pendingFlow(request.body), 'login_by_code');
      if (kind === 'app') assert.ok(request.body.meta.session_token);
      const code = await nextCode(sms, phone);
      assertError(await client.post('/auth/code/confirm', { code: code === 'AAAAAA' ? 'CCCCCC' : 'AAAAAA' }), 400, 'incorrect_code', 'code');
      const confirmed = await client.post('/auth/code/confirm', { code });
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
      assert.equal(confirmed.body.data.methods[0].method, 'code');
      assert.equal(confirmed.body.data.methods[0].phone, phone);
      assert.equal((await client.post('/auth/code/confirm', { code })).status, 409, 'single-use');
    });
  }

  it('answers an unknown number like a known one and texts it nothing', async () => {
    const phone = uniquePhone();
    const client = server().client('app');
    const request = await client.post('/auth/code/request', { phone });
    assert.equal(request.status, 401);
    assert.equal(pendingFlow(request.body), 'login_by_code');
    assertError(await client.post('/auth/code/confirm', { code: 'ACDEFG' }), 400, 'incorrect_code', 'code');
    assert.equal(sms.countTo(phone), 0);
    assertError(await client.post('/auth/code/request', { phone: '555-2671' }), 400, 'invalid', 'phone');
  });

  it('verifies the number when a texted code logs in', async () => {
    const phone = uniquePhone();
    await server().client('app').post('/auth/signup', { phone, password: PASSWORD });
    await nextCode(sms, phone); // the signup's verification code, left unused
    const client = server().client('app');
    await client.post('/auth/code/request', { phone });
    assert.equal((await client.post('/auth/code/confirm', { code: await nextCode(sms, phone) })).status, 200);
    assert.deepEqual((await client.get('/account/phone')).body.data, [{ phone, verified: true }]);
  });

  it('gives 503 sms_unavailable when the login code cannot be texted, with nothing pending', async () => {
    const { phone } = await phoneAccount(server(), sms, 'app');
    const client = server().client('browser');
    await client.get('/config');
    sms.failWith = 500;
    try {
      assertError(await client.post('/auth/code/request', { phone }), 503, 'sms_unavailable');
    } finally {
      sms.failWith = null;
    }
    assert.equal((await client.post('/auth/code/confirm', { code: 'ACDEFG' })).status, 409);
  });

  for (const kind of CLIENTS) {
    it(`resets the password of a phone-only account by texted code (${kind})`, async () => {
      const { phone } = await phoneAccount(server(), sms, 'app');
      const client = await readyClient(server(), kind);
      const request = await client.post('/auth/password/request', { phone });
      assert.equal(request.status, 401);
      assert.equal(pendingFlow(request.body), 'password_reset_by_code');
      const code = await nextCode(sms, phone);

      const info = await client.get('/auth/password/reset', { 'x-password-reset-key': code });
      assert.equal(info.status, 200, JSON.stringify(info.body));
      const newPassword = 'an entirely new passphrase';
      const reset = await client.post('/auth/password/reset', { key: code, password: newPassword });
      assert.ok([200, 401].includes(reset.status), JSON.stringify(reset.body));
      assert.equal(reset.body.errors, undefined);

      const login = server().client('app');
      assertError(await login.post('/auth/login', { phone, password: PASSWORD }), 400, 'phone_password_mismatch', 'password');
      assert.equal((await login.post('/auth/login', { phone, password: newPassword })).status, 200);
    });
  }

  it('answers a reset for an unknown number like a known one and texts it nothing', async () => {
    const phone = uniquePhone();
    const client = server().client('app');
    const request = await client.post('/auth/password/request', { phone });
    assert.equal(request.status, 401);
    assert.equal(pendingFlow(request.body), 'password_reset_by_code');
    assertError(await client.post('/auth/password/reset', { key: 'ACDEFG', password: 'an entirely new passphrase' }), 400, 'incorrect_code', 'key');
    assert.equal(sms.countTo(phone), 0);
    assertError(await client.post('/auth/password/request', { phone: 'nope' }), 400, 'invalid', 'phone');
    assertError(await client.post('/auth/password/request', {}), 400, 'required', 'email');
  });
});
