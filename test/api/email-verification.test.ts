import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import type { ApiClient } from '../support/client.js';
import { PASSWORD, assertError, codeFromMail, flowIds, keyFromMail, mailsTo, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';

const PENDING = ['login', 'signup', 'verify_email!'];

/** Signs up under mandatory verification: 401 with verify_email pending. */
async function pendingSignup(server: TestServer, kind: 'app' | 'browser', email = uniqueEmail()): Promise<{ client: ApiClient; email: string; token: string | undefined }> {
  const client = await readyClient(server, kind);
  const response = await client.post('/auth/signup', { email, password: PASSWORD });
  assert.equal(response.status, 401, JSON.stringify(response.body));
  assert.equal(response.body.meta.is_authenticated, false);
  assert.deepEqual(flowIds(response.body), PENDING);
  if (kind === 'app') assert.ok(response.body.meta.session_token, 'the app gets a token for the pending flow');
  else assert.ok(client.cookies.get('sessionid'));
  return { client, email, token: response.body.meta.session_token };
}

async function isVerified(server: TestServer, email: string): Promise<boolean> {
  const row = await server.app.deps.db.selectFrom('email_addresses').select('verified').where('email_lower', '=', email.toLowerCase()).executeTakeFirstOrThrow();
  return row.verified === 1;
}

describeEachDatabase('email verification mandatory, by link', { ACCOUNT_EMAIL_VERIFICATION: 'mandatory' }, ({ server }) => {
  it('app: keeps the pending token through verification and gets a new one on login', async () => {
    const { client, email, token } = await pendingSignup(server(), 'app');
    const pending = await client.get('/auth/session');
    assert.equal(pending.status, 401);
    assert.deepEqual(flowIds(pending.body), PENDING);

    const key = keyFromMail(await server().mail.waitForMail({ to: email }));
    const info = await client.get('/auth/email/verify', { 'X-Email-Verification-Key': key });
    assert.equal(info.status, 200);
    assert.equal(info.body.data.email, email);
    assert.equal(info.body.data.user.email, email);
    assert.equal(info.body.meta.is_authenticating, true);
    assert.equal(client.sessionToken, token, 'looking the key up does not change the token');

    const verified = await client.post('/auth/email/verify', { key });
    assert.equal(verified.status, 200);
    assert.equal(verified.body.meta.is_authenticated, true);
    assert.equal(verified.body.data.user.email, email);
    assert.ok(verified.body.meta.session_token);
    assert.notEqual(verified.body.meta.session_token, token, 'login cycles the token');
    assert.equal((await client.get('/auth/session')).status, 200);

    const old = await server().client('app').get('/auth/session', { 'X-Session-Token': token! });
    assert.equal(old.status, 410);
    assert.equal(old.body.meta.is_authenticated, null);
    assert.ok(await isVerified(server(), email));
  });

  it('browser: verifies and logs in with a new session cookie', async () => {
    const { client, email } = await pendingSignup(server(), 'browser');
    const before = client.cookies.get('sessionid');
    const key = keyFromMail(await server().mail.waitForMail({ to: email }));
    const verified = await client.post('/auth/email/verify', { key });
    assert.equal(verified.status, 200);
    assert.equal(verified.body.meta.is_authenticated, true);
    assert.notEqual(client.cookies.get('sessionid'), before);
    assert.equal((await client.get('/auth/session')).status, 200);
  });

  it('refuses an unknown key and keeps the flow pending', async () => {
    const { client } = await pendingSignup(server(), 'app');
    assertError(await client.post('/auth/email/verify', { key: 'not-a-real-key' }), 400, 'invalid_or_expired_key', 'key');
    assertError(await client.get('/auth/email/verify', { 'X-Email-Verification-Key': 'not-a-real-key' }), 400, 'invalid_or_expired_key', 'key');
    assert.deepEqual(flowIds((await client.get('/auth/session')).body), PENDING);
  });

  it('needs the key header on GET', async () => {
    const response = await server().client('app').get('/auth/email/verify');
    assertError(response, 400, 'required', response.body.errors?.[0]?.param);
    assert.ok(response.body.errors[0].param, 'names the missing header');
  });

  it('login before verifying answers 401 verify_email pending and mails again; that key completes the login', async () => {
    const { email } = await pendingSignup(server(), 'app');
    await server().mail.waitForMail({ to: email });
    const app = server().client('app');
    const login = await app.post('/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 401);
    assert.deepEqual(flowIds(login.body), PENDING);
    assert.ok(login.body.meta.session_token);
    const key = keyFromMail(await nthMail(server().mail, email, 2));
    const verified = await app.post('/auth/email/verify', { key });
    assert.equal(verified.status, 200);
    assert.equal(verified.body.data.user.email, email);
  });

  it('resend mails a new link; 409 when nothing is pending', async () => {
    const { client, email } = await pendingSignup(server(), 'browser');
    await server().mail.waitForMail({ to: email });
    const resent = await client.post('/auth/email/verify/resend');
    assert.equal(resent.status, 200);
    const key = keyFromMail(await nthMail(server().mail, email, 2));
    assert.equal((await client.post('/auth/email/verify', { key })).status, 200);

    const nobody = await readyClient(server(), 'browser');
    const nothing = await nobody.post('/auth/email/verify/resend');
    assert.equal(nothing.status, 409);
    assert.deepEqual(nothing.body, { status: 409 });
  });

  it('one link used twice at once verifies once', async () => {
    const { client, email } = await pendingSignup(server(), 'app');
    const key = keyFromMail(await server().mail.waitForMail({ to: email }));
    const both = await Promise.all([client.post('/auth/email/verify', { key }), client.post('/auth/email/verify', { key })]);
    const statuses = both.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
    assert.ok(statuses.every((s) => s === 200 || s === 400 || s === 409), statuses.join());
  });

  it('an expired link is refused', async () => {
    const { client, email } = await pendingSignup(server(), 'app');
    const key = keyFromMail(await server().mail.waitForMail({ to: email }));
    server().clock.advance(3 * 86400_000 + 1000); // ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS=3
    assertError(await client.post('/auth/email/verify', { key }), 400, 'invalid_or_expired_key', 'key');
    assert.equal(await isVerified(server(), email), false);
  });
});

describeEachDatabase(
  'email verification mandatory, no login on confirmation',
  { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION: 'false' },
  ({ server }) => {
    it('verifies without logging in; the password login then works', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const key = keyFromMail(await server().mail.waitForMail({ to: email }));
      const verified = await client.post('/auth/email/verify', { key });
      assert.equal(verified.status, 401);
      assert.deepEqual(flowIds(verified.body), ['login', 'signup']);
      assert.ok(await isVerified(server(), email));
      assert.equal((await client.post('/auth/login', { email, password: PASSWORD })).status, 200);
    });
  },
);

describeEachDatabase(
  'email verification mandatory, by code',
  { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'true', ACCOUNT_EMAIL_VERIFICATION_BY_CODE_MAX_ATTEMPTS: '3' },
  ({ server }) => {
    for (const kind of ['app', 'browser'] as const) {
      it(`a wrong code spends an attempt, the right one logs in (${kind})`, async () => {
        const { client, email, token } = await pendingSignup(server(), kind);
        const mail = await server().mail.waitForMail({ to: email });
        const code = codeFromMail(mail);
        assert.equal(extractsNoKeyLink(mail.text), true, 'a code mail carries no verification link');
        const wrong = await client.post('/auth/email/verify', { key: otherCode(code) });
        assertError(wrong, 400, 'incorrect_code', 'key');
        if (kind === 'app') assert.equal(client.sessionToken, token, 'the token is kept through verification');
        assert.deepEqual(flowIds((await client.get('/auth/session')).body), PENDING);

        const right = await client.post('/auth/email/verify', { key: code.toLowerCase() });
        assert.equal(right.status, 200);
        assert.equal(right.body.meta.is_authenticated, true);
        if (kind === 'app') {
          assert.ok(right.body.meta.session_token);
          assert.notEqual(right.body.meta.session_token, token);
          assert.equal((await server().client('app').get('/auth/session', { 'X-Session-Token': token! })).status, 410);
        }
        assert.ok(await isVerified(server(), email));
        // The flow is gone: the same code cannot be used again.
        assert.equal((await client.post('/auth/email/verify', { key: code })).status, 409);
      });
    }

    it('logging in again while a code is pending keeps that code and its spent attempts', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const code = codeFromMail(await server().mail.waitForMail({ to: email }));
      assertError(await client.post('/auth/email/verify', { key: otherCode(code) }), 400, 'incorrect_code', 'key');
      const again = await client.post('/auth/login', { email, password: PASSWORD });
      assert.equal(again.status, 401);
      assert.deepEqual(flowIds(again.body), PENDING);
      assertError(await client.post('/auth/email/verify', { key: otherCode(code) }), 400, 'incorrect_code', 'key');
      assert.equal((await client.post('/auth/email/verify', { key: code })).status, 200, 'the first code still works');
    });

    it('GET with the code tells what it verifies and spends an attempt', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const code = codeFromMail(await server().mail.waitForMail({ to: email }));
      const info = await client.get('/auth/email/verify', { 'X-Email-Verification-Key': code });
      assert.equal(info.status, 200);
      assert.equal(info.body.data.email, email);
      assert.equal(info.body.meta.is_authenticating, true);
      assertError(await client.post('/auth/email/verify', { key: otherCode(code) }), 400, 'incorrect_code', 'key');
      // Two of three attempts spent: one wrong guess more ends the flow.
      assertError(await client.post('/auth/email/verify', { key: otherCode(code) }), 400, 'incorrect_code', 'key');
      assert.equal((await client.post('/auth/email/verify', { key: code })).status, 409);
    });

    it('after the attempt budget the flow is dropped: 409 even for the right code', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const code = codeFromMail(await server().mail.waitForMail({ to: email }));
      for (let i = 0; i < 3; i++) assertError(await client.post('/auth/email/verify', { key: otherCode(code) }), 400, 'incorrect_code', 'key');
      const refused = await client.post('/auth/email/verify', { key: code });
      assert.equal(refused.status, 409);
      assert.deepEqual(refused.body, { status: 409 });
      assert.deepEqual(flowIds((await client.get('/auth/session')).body), ['login', 'signup']);
      assert.equal(await isVerified(server(), email), false);
    });

    it('a burst of parallel wrong codes spends at most the budget', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const code = codeFromMail(await server().mail.waitForMail({ to: email }));
      const burst = await Promise.all(Array.from({ length: 12 }, () => client.post('/auth/email/verify', { key: otherCode(code) })));
      const statuses = burst.map((r) => r.status);
      assert.ok(statuses.every((s) => s === 400 || s === 409), statuses.join());
      assert.ok(statuses.filter((s) => s === 400).length <= 3, statuses.join());
      assert.equal((await client.post('/auth/email/verify', { key: code })).status, 409);
      assert.equal(await isVerified(server(), email), false);
    });

    it('the right code sent twice at once completes the login once', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const code = codeFromMail(await server().mail.waitForMail({ to: email }));
      const both = await Promise.all([client.post('/auth/email/verify', { key: code }), client.post('/auth/email/verify', { key: code })]);
      const statuses = both.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 409], statuses.join());
      assert.equal((await client.get('/auth/session')).status, 200);
    });

    it('a parallel burst that spends exactly the budget ends the flow at once', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const code = codeFromMail(await server().mail.waitForMail({ to: email }));
      const burst = await Promise.all(Array.from({ length: 3 }, () => client.post('/auth/email/verify', { key: otherCode(code) })));
      for (const r of burst) assertError(r, 400, 'incorrect_code', 'key');
      assert.deepEqual(flowIds((await client.get('/auth/session')).body), ['login', 'signup'], 'no verification is pending any more');
    });

    it('resend sends a new code and keeps the attempt count', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const first = codeFromMail(await server().mail.waitForMail({ to: email }));
      for (let i = 0; i < 2; i++) assertError(await client.post('/auth/email/verify', { key: otherCode(first) }), 400, 'incorrect_code', 'key');
      assert.equal((await client.post('/auth/email/verify/resend')).status, 200);
      const second = codeFromMail(await nthMail(server().mail, email, 2));
      assertError(await client.post('/auth/email/verify', { key: otherCode(second) }), 400, 'incorrect_code', 'key');
      assert.equal((await client.post('/auth/email/verify', { key: second })).status, 409);
    });

    it('after a resend the new code works and the old one does not', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const first = codeFromMail(await server().mail.waitForMail({ to: email }));
      assert.equal((await client.post('/auth/email/verify/resend')).status, 200);
      const second = codeFromMail(await nthMail(server().mail, email, 2));
      if (second !== first) assertError(await client.post('/auth/email/verify', { key: first }), 400, 'incorrect_code', 'key');
      assert.equal((await client.post('/auth/email/verify', { key: second })).status, 200);
    });

    it('nothing pending: verify and resend answer 409', async () => {
      const client = server().client('app');
      assert.equal((await client.post('/auth/email/verify', { key: 'ABCDEF' })).status, 409);
      assert.equal((await client.get('/auth/email/verify', { 'X-Email-Verification-Key': 'ABCDEF' })).status, 409);
      assert.equal((await client.post('/auth/email/verify/resend')).status, 409);
    });

    it('an expired code answers 409', async () => {
      const { client, email } = await pendingSignup(server(), 'app');
      const code = codeFromMail(await server().mail.waitForMail({ to: email }));
      server().clock.advance(901_000); // ACCOUNT_EMAIL_VERIFICATION_BY_CODE_TIMEOUT defaults to 900 s
      assert.equal((await client.post('/auth/email/verify', { key: code })).status, 409);
      assert.equal(await isVerified(server(), email), false);
    });
  },
);

describeEachDatabase(
  'email verification optional, by code',
  { ACCOUNT_EMAIL_VERIFICATION: 'optional', ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'true' },
  ({ server }) => {
    it('is logged in at signup and can verify with the code afterwards', async () => {
      const client = await readyClient(server(), 'app');
      const email = uniqueEmail();
      const signup = await client.post('/auth/signup', { email, password: PASSWORD });
      assert.equal(signup.status, 200);
      const code = codeFromMail(await server().mail.waitForMail({ to: email }));
      const verified = await client.post('/auth/email/verify', { key: code });
      assert.equal(verified.status, 200);
      assert.equal(verified.body.meta.is_authenticated, true);
      assert.ok(await isVerified(server(), email));
      assert.equal(mailsTo(server().mail, email).length, 1);
    });
  },
);

/** A code of the same shape that differs from `code` in its first character. */
function otherCode(code: string): string {
  return (code[0] === 'A' ? 'C' : 'A') + code.slice(1);
}

function extractsNoKeyLink(text: string): boolean {
  return !text.includes('/verify-email/');
}
