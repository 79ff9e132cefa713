import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import type { ApiClient } from '../support/client.js';
import { assertError, flowIds, readyClient, uniqueEmail } from '../support/accounts.js';
import { startSmsReceiver } from '../support/sms-receiver.js';
import { PASSWORD, formatted, nextCode, uniquePhone, webhookEnv } from './support.js';

// GET/POST /account/phone: a logged-in account adds or changes its number,
// confirmed by a code texted to the new number.

const sms = await startSmsReceiver();
after(() => sms.close());

const CLIENTS = ['browser', 'app'] as const;
// Email accounts that may also hold a phone number.
const ENV = { ACCOUNT_SIGNUP_FIELDS: 'email*,phone,password1*', ...webhookEnv(sms) };

async function emailAccount(server: TestServer, kind: 'browser' | 'app'): Promise<ApiClient> {
  const client = await readyClient(server, kind);
  const signup = await client.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD });
  assert.equal(signup.status, 200, JSON.stringify(signup.body));
  // Signing up proves no factor (as in the reference): changing the number needs the password confirmed.
  assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
  return client;
}

/** Adds and verifies `phone` for a logged-in client. */
async function addPhone(client: ApiClient, phone: string): Promise<void> {
  const added = await client.post('/account/phone', { phone });
  assert.equal(added.status, 202, JSON.stringify(added.body));
  assert.equal((await client.post('/auth/phone/verify', { code: await nextCode(sms, phone) })).status, 200);
}

describeEachDatabase('phone management', ENV, ({ server }) => {
  before(() => sms.clear());

  for (const kind of CLIENTS) {
    it(`adds a number once the texted code confirms it (${kind})`, async () => {
      const client = await emailAccount(server(), kind);
      assert.deepEqual((await client.get('/account/phone')).body, { status: 200, data: [] });

      const phone = uniquePhone();
      const added = await client.post('/account/phone', { phone: formatted(phone) });
      assert.equal(added.status, 202);
      assert.deepEqual(added.body, { status: 202, data: [{ phone, verified: false }] });
      // Not the account's number until confirmed.
      assert.deepEqual((await client.get('/account/phone')).body.data, []);

      const code = await nextCode(sms, phone);
      assertError(await client.post('/auth/phone/verify', { code: code === 'AAAAAA' ? 'CCCCCC' : 'AAAAAA' }), 400, 'incorrect_code', 'code');
      const verified = await client.post('/auth/phone/verify', { code });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal(verified.body.meta.is_authenticated, true);
      assert.deepEqual((await client.get('/account/phone')).body.data, [{ phone, verified: true }]);
      assert.equal((await client.post('/auth/phone/verify', { code })).status, 409, 'single-use');

      assertError(await client.post('/account/phone', { phone }), 400, 'same_as_current', 'phone');
    });
  }

  it('replaces the number, freeing the old one for other accounts', async () => {
    const client = await emailAccount(server(), 'app');
    const first = uniquePhone();
    const second = uniquePhone();
    await addPhone(client, first);
    await addPhone(client, second);
    assert.deepEqual((await client.get('/account/phone')).body.data, [{ phone: second, verified: true }]);

    const other = await emailAccount(server(), 'browser');
    await addPhone(other, first);
    assert.deepEqual((await other.get('/account/phone')).body.data, [{ phone: first, verified: true }]);
  });

  it('answers a number owned by another account like any other, without a usable code', async () => {
    const owner = await emailAccount(server(), 'app');
    const phone = uniquePhone();
    await addPhone(owner, phone);

    const client = await emailAccount(server(), 'browser');
    const added = await client.post('/account/phone', { phone });
    assert.equal(added.status, 202);
    assert.deepEqual(added.body, { status: 202, data: [{ phone, verified: false }] });
    const notice = await sms.next(phone);
    assert.doesNotMatch(notice.message, /^[A-Z0-9]{6}$/m, 'the owner gets a notice, not a code');
    assertError(await client.post('/auth/phone/verify', { code: 'ACDEFG' }), 400, 'incorrect_code', 'code');
    assert.deepEqual((await client.get('/account/phone')).body.data, []);
    assert.deepEqual((await owner.get('/account/phone')).body.data, [{ phone, verified: true }]);
  });

  it('rejects malformed numbers with invalid/phone', async () => {
    const client = await emailAccount(server(), 'app');
    for (const phone of ['', '0044 20 7946 0958', '+44 20', 'not a number']) {
      assertError(await client.post('/account/phone', { phone }), 400, 'invalid', 'phone');
    }
    assertError(await client.post('/account/phone', {}), 400, 'required', 'phone');
  });

  it('needs a login: 401 to read, 409 to change', async () => {
    for (const kind of CLIENTS) {
      const client = await readyClient(server(), kind);
      const list = await client.get('/account/phone');
      assert.equal(list.status, 401);
      assert.equal(list.body.meta.is_authenticated, false);
      assert.equal((await client.post('/account/phone', { phone: uniquePhone() })).status, 409);
    }
  });

  it('gives a clear 503 when the code cannot be texted, and changes nothing', async () => {
    const client = await emailAccount(server(), 'browser');
    const phone = uniquePhone();
    sms.failWith = 503;
    try {
      assertError(await client.post('/account/phone', { phone }), 503, 'sms_unavailable');
    } finally {
      sms.failWith = null;
    }
    assert.equal((await client.post('/auth/phone/verify', { code: 'ACDEFG' })).status, 409, 'no change is pending');
    assert.deepEqual((await client.get('/account/phone')).body.data, []);
  });
});

describeEachDatabase('phone numbers without enumeration prevention', { ...ENV, ACCOUNT_PREVENT_ENUMERATION: 'false' }, ({ server }) => {
  before(() => sms.clear());

  it('says phone_taken at signup and on change', async () => {
    const owner = await emailAccount(server(), 'app');
    const phone = uniquePhone();
    await addPhone(owner, phone);

    const visitor = server().client('app');
    assertError(await visitor.post('/auth/signup', { email: uniqueEmail(), phone, password: PASSWORD }), 400, 'phone_taken', 'phone');

    const client = await emailAccount(server(), 'app');
    assertError(await client.post('/account/phone', { phone }), 400, 'phone_taken', 'phone');
    assert.equal(sms.countTo(phone), 1, 'only the owner\'s own code was ever texted');
  });
});

describeEachDatabase('phone changes and ACCOUNT_REAUTHENTICATION_REQUIRED', ENV, ({ server }) => {
  it('regression: a number is added long after the login by default (issue 13 item 18)', async () => {
    const client = await emailAccount(server(), 'app');
    server().clock.advance(3600_000);
    await addPhone(client, uniquePhone());
  });
});

describeEachDatabase('ACCOUNT_REAUTHENTICATION_REQUIRED=true for phone changes', { ...ENV, ACCOUNT_REAUTHENTICATION_REQUIRED: 'true' }, ({ server }) => {
  it('asks for reauthentication when the last login is too old', async () => {
    const client = await emailAccount(server(), 'app');
    server().clock.advance(301_000);
    const phone = uniquePhone();
    const stale = await client.post('/account/phone', { phone });
    assert.equal(stale.status, 401);
    assert.equal(stale.body.meta.is_authenticated, true);
    assert.deepEqual(flowIds(stale.body), ['reauthenticate']);
    assert.equal(sms.countTo(phone), 0);

    assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    assert.equal((await client.post('/account/phone', { phone })).status, 202);
  });
});
