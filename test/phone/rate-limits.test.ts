import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { readyClient } from '../support/accounts.js';
import { startSmsReceiver } from '../support/sms-receiver.js';
import { PASSWORD, PHONE_ONLY, nextCode, pendingFlow, uniquePhone, webhookEnv } from './support.js';

// The reference's phone limits: verify_phone (1 per 30 s per number) on every
// code texted, change_phone (1 a minute per user). The per-IP part of
// verify_phone is raised here: every test request comes from one address.

const sms = await startSmsReceiver();
after(() => sms.close());

const LIMITS = JSON.stringify({ verify_phone: '1/30s/key,20/m/ip', change_phone: '1/m/user' });

describeEachDatabase('phone rate limits', { ...PHONE_ONLY, ...webhookEnv(sms), ACCOUNT_RATE_LIMITS: LIMITS }, ({ server }) => {
  before(() => sms.clear());

  it('answers 429 to a resend within the verify_phone window', async () => {
    const phone = uniquePhone();
    const client = await readyClient(server(), 'browser');
    const signup = await client.post('/auth/signup', { phone, password: PASSWORD });
    assert.equal(pendingFlow(signup.body), 'verify_phone');
    const code = await nextCode(sms, phone);
    const resend = await client.post('/auth/phone/verify/resend');
    assert.equal(resend.status, 429);
    assert.ok(Number(resend.headers.get('retry-after')) > 0);
    assert.equal(sms.countTo(phone), 1);
    // The pending code still works.
    assert.equal((await client.post('/auth/phone/verify', { code })).status, 200);
  });

  it('answers 429 to a second change of number within a minute', async () => {
    const client = await readyClient(server(), 'app');
    const phone = uniquePhone();
    const signup = await client.post('/auth/signup', { phone, password: PASSWORD });
    assert.equal(signup.status, 401);
    assert.equal((await client.post('/auth/phone/verify', { code: await nextCode(sms, phone) })).status, 200);
    // Signing up proved no factor: the change needs the password confirmed.
    assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);

    const first = await client.post('/account/phone', { phone: uniquePhone() });
    assert.equal(first.status, 202);
    const second = await client.post('/account/phone', { phone: uniquePhone() });
    assert.equal(second.status, 429);
  });
});
