import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { readyClient, uniqueEmail } from '../support/accounts.js';
import { startSmsReceiver } from '../support/sms-receiver.js';
import { PASSWORD, nextCode, uniquePhone, webhookEnv } from './support.js';

// Issue 13 item 15: ACCOUNT_LOGIN_METHODS=email,phone with the default signup
// fields refused to start ("login method phone needs the field phone*"). The
// reference only warns when no login method is a required signup field: an
// account signs up by email and adds a number later, then logs in with either.

const sms = await startSmsReceiver();
after(() => sms.close());

describeEachDatabase(
  'regression: phone login for a number added after an email signup (issue 13 item 15)',
  { ACCOUNT_LOGIN_METHODS: 'email,phone', ACCOUNT_EMAIL_VERIFICATION: 'none', ...webhookEnv(sms) },
  ({ server }) => {
    it('the server starts with the default signup fields, and the added number logs in', async () => {
      const config = await server().client('app').get('/config');
      assert.deepEqual(config.body.data.account.login_methods, ['email', 'phone']);

      const email = uniqueEmail();
      const client = await readyClient(server(), 'app');
      assert.equal((await client.post('/auth/signup', { email, password: PASSWORD })).status, 200);
      const phone = uniquePhone();
      assert.equal((await client.post('/account/phone', { phone })).status, 202);
      assert.equal((await client.post('/auth/phone/verify', { code: await nextCode(sms, phone) })).status, 200);

      const byPhone = await server().client('app').post('/auth/login', { phone, password: PASSWORD });
      assert.equal(byPhone.status, 200, JSON.stringify(byPhone.body));
      assert.equal(byPhone.body.data.user.email, email);
      assert.deepEqual(byPhone.body.data.methods.map((m: { method: string; phone?: string }) => [m.method, m.phone]), [['password', phone]]);
      assert.equal((await server().client('browser').get('/config')).status, 200);
      const byEmail = await (await readyClient(server(), 'browser')).post('/auth/login', { email, password: PASSWORD });
      assert.equal(byEmail.status, 200);
    });
  },
);
