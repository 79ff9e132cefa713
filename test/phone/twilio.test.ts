import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { readyClient } from '../support/accounts.js';
import { codeIn, startFakeTwilio } from '../support/sms-receiver.js';
import { PASSWORD, PHONE_ONLY, pendingFlow, uniquePhone } from './support.js';

// SMS_BACKEND=twilio end to end, against a local server impersonating
// Twilio's Messages endpoint (TWILIO_API_BASE_URL); the real service is never called.

const twilio = await startFakeTwilio();
after(() => twilio.close());

const ENV = {
  ...PHONE_ONLY,
  SMS_BACKEND: 'twilio',
  TWILIO_ACCOUNT_SID: twilio.accountSid,
  TWILIO_AUTH_TOKEN: twilio.authToken,
  TWILIO_FROM_NUMBER: twilio.from,
  TWILIO_API_BASE_URL: twilio.baseUrl,
};

describeEachDatabase('phone signup over Twilio', ENV, ({ server }) => {
  before(() => twilio.clear());

  for (const kind of ['browser', 'app'] as const) {
    it(`texts the verification code through Twilio (${kind})`, async () => {
      const phone = uniquePhone();
      const client = await readyClient(server(), kind);
      const signup = await client.post('/auth/signup', { phone, password: PASSWORD });
      assert.equal(signup.status, 401);
      assert.equal(pendingFlow(signup.body), 'verify_phone');
      const verified = await client.post('/auth/phone/verify', { code: codeIn(await twilio.next(phone)) });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal(twilio.rejected, 0);
    });
  }
});
