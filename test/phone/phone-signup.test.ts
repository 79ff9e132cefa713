import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { assertError, readyClient } from '../support/accounts.js';
import { startSmsReceiver } from '../support/sms-receiver.js';
import { PASSWORD, PHONE_ONLY, formatted, nextCode, pendingFlow, phoneAccount, uniquePhone, webhookEnv } from './support.js';

// Phone-only accounts over HTTP: signup, verification by SMS code, login by
// number and password. Codes come from a real webhook receiver.

const sms = await startSmsReceiver();
after(() => sms.close());

const CLIENTS = ['browser', 'app'] as const;

describeEachDatabase('phone-only signup and login', { ...PHONE_ONLY, ...webhookEnv(sms) }, ({ server }) => {
  before(() => sms.clear());

  async function countRows(table: 'users' | 'phone_numbers'): Promise<number> {
    const row = await server().app.deps.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('lists phone among the login methods', async () => {
    const config = await server().client('app').get('/config');
    assert.deepEqual(config.body.data.account.login_methods, ['phone']);
  });

  for (const kind of CLIENTS) {
    it(`signs up with a number, verifies it by SMS code and logs in (${kind})`, async () => {
      const phone = uniquePhone();
      const client = await readyClient(server(), kind);
      // Typed with spaces and punctuation; stored and shown in E.164.
      const signup = await client.post('/auth/signup', { phone: formatted(phone), password: PASSWORD });
      assert.equal(signup.status, 401);
      assert.equal(pendingFlow(signup.body), 'verify_phone');
      if (kind === 'app') assert.ok(signup.body.meta.session_token);

      const sent = await sms.next(phone);
      assert.match(sent.message, /\n[A-Z0-9]{6}\n/, 'the code stands on a line of its own');
      const code = sent.message.split('\n')[1]!;

      assertError(await client.post('/auth/phone/verify', { code: code === 'AAAAAA' ? 'CCCCCC' : 'AAAAAA' }), 400, 'incorrect_code', 'code');
      const verified = await client.post('/auth/phone/verify', { code: code.toLowerCase() });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal(verified.body.meta.is_authenticated, true);
      assert.deepEqual(verified.body.data.methods, [], 'signing up records no method, as in the reference');
      assert.equal(verified.body.data.user.email, undefined);

      const phones = await client.get('/account/phone');
      assert.equal(phones.status, 200);
      assert.deepEqual(phones.body.data, [{ phone, verified: true }]);

      // The code was single-use and the flow is gone.
      assert.equal((await client.post('/auth/phone/verify', { code })).status, 409);

      const other = await readyClient(server(), kind);
      const login = await other.post('/auth/login', { phone, password: PASSWORD });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.equal(login.body.data.methods[0].phone, phone);
      assert.equal(sms.countTo(phone), 1, 'a verified number is not texted again at login');
    });
  }

  it('refuses a wrong password and an unknown number alike', async () => {
    const { phone } = await phoneAccount(server(), sms, 'app');
    const client = server().client('app');
    assertError(await client.post('/auth/login', { phone, password: 'not the password at all' }), 400, 'phone_password_mismatch', 'password');
    assertError(await client.post('/auth/login', { phone: uniquePhone(), password: PASSWORD }), 400, 'phone_password_mismatch', 'password');
  });

  it('rejects malformed numbers with invalid/phone', async () => {
    const client = server().client('app');
    for (const phone of ['4155552671', '+1 415 555', 'phone', '+1 415 555 2671 ext 12', '+999 123 456']) {
      assertError(await client.post('/auth/signup', { phone, password: PASSWORD }), 400, 'invalid', 'phone');
      assertError(await client.post('/auth/login', { phone, password: PASSWORD }), 400, 'invalid', 'phone');
    }
    assertError(await client.post('/auth/signup', { password: PASSWORD }), 400, 'required', 'phone');
  });

  it('answers a signup with a taken number like a new one, texting the owner a notice instead of a code', async () => {
    const { phone } = await phoneAccount(server(), sms, 'app');
    const users = await countRows('users');
    const client = server().client('app');
    const signup = await client.post('/auth/signup', { phone, password: 'another long passphrase' });
    assert.equal(signup.status, 401);
    assert.equal(pendingFlow(signup.body), 'verify_phone');
    const notice = await sms.next(phone);
    assert.doesNotMatch(notice.message, /^[A-Z0-9]{6}$/m, 'the notice carries no code');
    assertError(await client.post('/auth/phone/verify', { code: 'ACDEFG' }), 400, 'incorrect_code', 'code');
    assert.equal(await countRows('users'), users, 'no account was made');
  });

  it('verifies at login a number left unverified at signup', async () => {
    const phone = uniquePhone();
    const abandoned = server().client('app');
    assert.equal((await abandoned.post('/auth/signup', { phone, password: PASSWORD })).status, 401);
    await sms.next(phone);

    const client = server().client('browser');
    await client.get('/config');
    const login = await client.post('/auth/login', { phone, password: PASSWORD });
    assert.equal(login.status, 401);
    assert.equal(pendingFlow(login.body), 'verify_phone');
    const verified = await client.post('/auth/phone/verify', { code: await nextCode(sms, phone) });
    assert.equal(verified.status, 200);
    assert.equal((await client.get('/auth/session')).status, 200);
  });

  it('answers 409 when no phone verification is pending', async () => {
    for (const kind of CLIENTS) {
      const client = await readyClient(server(), kind);
      assert.equal((await client.post('/auth/phone/verify', { code: 'ACDEFG' })).status, 409);
      assert.equal((await client.post('/auth/phone/verify/resend')).status, 409);
    }
  });

  it('drops the flow after the maximum number of wrong codes; the right code is then refused', async () => {
    const phone = uniquePhone();
    const client = server().client('app');
    await client.post('/auth/signup', { phone, password: PASSWORD });
    const code = await nextCode(sms, phone);
    const wrong = code === 'AAAAAA' ? 'CCCCCC' : 'AAAAAA';
    assertError(await client.post('/auth/phone/verify', { code: wrong }), 400, 'incorrect_code', 'code');
    assertError(await client.post('/auth/phone/verify', { code: wrong }), 400, 'incorrect_code', 'code');
    assertError(await client.post('/auth/phone/verify', { code: wrong }), 400, 'incorrect_code', 'code');
    assert.equal((await client.post('/auth/phone/verify', { code })).status, 409);
  });

  it('spends at most the attempt budget under a burst of parallel wrong codes', async () => {
    const phone = uniquePhone();
    const client = server().client('app');
    await client.post('/auth/signup', { phone, password: PASSWORD });
    const code = await nextCode(sms, phone);
    const wrong = code === 'AAAAAA' ? 'CCCCCC' : 'AAAAAA';
    const answers = await Promise.all(Array.from({ length: 12 }, () => client.post('/auth/phone/verify', { code: wrong })));
    assert.ok(answers.filter((a) => a.status === 400).length <= 3);
    assert.equal((await client.post('/auth/phone/verify', { code })).status, 409);
  });

  it('expires codes', async () => {
    const phone = uniquePhone();
    const client = server().client('app');
    await client.post('/auth/signup', { phone, password: PASSWORD });
    const code = await nextCode(sms, phone);
    server().clock.advance(901_000);
    assert.equal((await client.post('/auth/phone/verify', { code })).status, 409);
  });

  it('resends a new code without resetting the attempt count', async () => {
    const phone = uniquePhone();
    const client = server().client('browser');
    await client.get('/config');
    await client.post('/auth/signup', { phone, password: PASSWORD });
    const first = await nextCode(sms, phone);
    const wrong = 'XXXXXX';
    assertError(await client.post('/auth/phone/verify', { code: wrong }), 400, 'incorrect_code', 'code');
    assertError(await client.post('/auth/phone/verify', { code: wrong }), 400, 'incorrect_code', 'code');

    const resend = await client.post('/auth/phone/verify/resend');
    assert.equal(resend.status, 200);
    const second = await nextCode(sms, phone);
    if (second !== first) assertError(await client.post('/auth/phone/verify', { code: first }), 400, 'incorrect_code', 'code');
    else assertError(await client.post('/auth/phone/verify', { code: wrong }), 400, 'incorrect_code', 'code');
    // Three attempts spent across both codes: the flow is gone.
    assert.equal((await client.post('/auth/phone/verify', { code: second })).status, 409);
  });

  it('gives a clear 503 when the SMS cannot be sent, and leaves no account behind', async () => {
    const phone = uniquePhone();
    const users = await countRows('users');
    const phones = await countRows('phone_numbers');
    sms.failWith = 500;
    try {
      for (const kind of CLIENTS) {
        const client = await readyClient(server(), kind);
        assertError(await client.post('/auth/signup', { phone, password: PASSWORD }), 503, 'sms_unavailable');
      }
    } finally {
      sms.failWith = null;
    }
    assert.equal(await countRows('users'), users);
    assert.equal(await countRows('phone_numbers'), phones);
    // Once the gateway is back, the same number signs up normally.
    await phoneAccount(server(), sms, 'app', phone);
  });

  it('keeps the pending code when a resend cannot be sent', async () => {
    const phone = uniquePhone();
    const client = server().client('app');
    await client.post('/auth/signup', { phone, password: PASSWORD });
    const code = await nextCode(sms, phone);
    sms.failWith = 502;
    try {
      assertError(await client.post('/auth/phone/verify/resend'), 503, 'sms_unavailable');
    } finally {
      sms.failWith = null;
    }
    assert.equal((await client.post('/auth/phone/verify', { code })).status, 200);
  });

  it('signs every webhook request', () => {
    assert.equal(sms.rejected, 0);
  });
});
