import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, codeFromMail, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import { CLIENTS, flowStates, loggedInUser, loginClient, resetKeyFromMail } from './helpers.js';

const NEW_PASSWORD = 'a brand new secret phrase';
const KEY_TIMEOUT_S = 3600;

describeEachDatabase('password reset by link', { ACCOUNT_EMAIL_VERIFICATION: 'none', PASSWORD_RESET_TIMEOUT: String(KEY_TIMEOUT_S) }, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`resets with the mailed key, once (${kind})`, async () => {
      const { email } = await loggedInUser(server(), 'app');
      const client = await readyClient(server(), kind);
      const request = await client.post('/auth/password/request', { email });
      assert.equal(request.status, 200);
      assert.deepEqual(request.body, { status: 200 });
      const key = resetKeyFromMail(await nthMail(server().mail, email, 1));

      const info = await client.get('/auth/password/reset', { 'x-password-reset-key': key });
      assert.equal(info.status, 200);
      assert.equal(info.body.data.user.email, email);

      assertError(await client.post('/auth/password/reset', { key, password: 'short' }), 400, 'password_too_short', 'password');
      const reset = await client.post('/auth/password/reset', { key, password: NEW_PASSWORD });
      // ACCOUNT_LOGIN_ON_PASSWORD_RESET is off: log in with the new password.
      assert.equal(reset.status, 401);
      assert.equal(reset.body.meta.is_authenticated, false);

      assertError(await client.post('/auth/password/reset', { key, password: 'yet another secret' }), 400, 'invalid_password_reset', 'key');
      assertError(await client.get('/auth/password/reset', { 'x-password-reset-key': key }), 400, 'invalid_password_reset', 'key');
      assertError(await (await readyClient(server(), kind)).post('/auth/login', { email, password: PASSWORD }), 400, 'email_password_mismatch', 'password');
      await loginClient(server(), kind, email, NEW_PASSWORD);
      // A security notice follows the reset.
      await server().mail.waitForMail({ to: email, subjectIncludes: 'password was changed' });
    });
  }

  it('answers an unknown address exactly like a known one, and mails it a notice', async () => {
    const { email: known } = await loggedInUser(server(), 'app');
    const unknown = uniqueEmail('nobody');
    const client = server().client('app');
    const a = await client.post('/auth/password/request', { email: known });
    const b = await client.post('/auth/password/request', { email: unknown });
    assert.equal(a.status, b.status);
    assert.deepEqual(a.body, b.body);
    const notice = await server().mail.waitForMail({ to: unknown });
    assert.match(notice.subject, /No account/);
    assert.equal(extractKeys(notice.text).length, 0);
  });

  it('rejects made-up, expired and pre-password-change keys', async () => {
    const app = server().client('app');
    assertError(await app.get('/auth/password/reset', { 'x-password-reset-key': 'made-up' }), 400, 'invalid_password_reset', 'key');
    assertError(await app.post('/auth/password/reset', { key: 'made-up', password: NEW_PASSWORD }), 400, 'invalid_password_reset', 'key');
    assertError(await app.post('/auth/password/reset', { password: NEW_PASSWORD }), 400, 'required', 'key');

    const { client: owner, email } = await loggedInUser(server(), 'app');
    await app.post('/auth/password/request', { email });
    const old = resetKeyFromMail(await nthMail(server().mail, email, 1));
    const change = await owner.post('/account/password/change', { current_password: PASSWORD, new_password: NEW_PASSWORD });
    assert.equal(change.status, 200);
    assertError(await app.get('/auth/password/reset', { 'x-password-reset-key': old }), 400, 'invalid_password_reset', 'key');

    await app.post('/auth/password/request', { email });
    const fresh = resetKeyFromMail(await nthMail(server().mail, email, 3));
    assert.equal((await app.get('/auth/password/reset', { 'x-password-reset-key': fresh })).status, 200);
    server().clock.advance(KEY_TIMEOUT_S * 1000 + 1000);
    assertError(await app.post('/auth/password/reset', { key: fresh, password: 'third secret phrase' }), 400, 'invalid_password_reset', 'key');
  });

  it('redeems a key exactly once under parallel requests', async () => {
    const { email } = await loggedInUser(server(), 'app');
    await server().client('app').post('/auth/password/request', { email });
    const key = resetKeyFromMail(await nthMail(server().mail, email, 1));
    const passwords = Array.from({ length: 8 }, (_, i) => `parallel secret number ${i}`);
    const answers = await Promise.all(passwords.map((password) => server().client('app').post('/auth/password/reset', { key, password })));
    const won = answers.filter((r) => r.status === 401);
    assert.equal(won.length, 1, answers.map((r) => r.status).join());
    for (const r of answers.filter((r) => r.status !== 401)) assertError(r, 400, 'invalid_password_reset', 'key');
    // Exactly one of the passwords is now the account's.
    const logins = await Promise.all(passwords.map((password) => server().client('app').post('/auth/login', { email, password })));
    assert.equal(logins.filter((r) => r.status === 200).length, 1);
  });

  it('ends every session of the user and spends the other keys', async () => {
    const { client: app, email } = await loggedInUser(server(), 'app');
    const browser = await loginClient(server(), 'browser', email);
    const stranger = server().client('app');
    await stranger.post('/auth/password/request', { email });
    await stranger.post('/auth/password/request', { email });
    const first = resetKeyFromMail(await nthMail(server().mail, email, 1));
    const second = resetKeyFromMail(await nthMail(server().mail, email, 2));
    assert.equal((await stranger.post('/auth/password/reset', { key: second, password: NEW_PASSWORD })).status, 401);
    assert.equal((await app.get('/auth/session')).status, 410);
    assert.equal((await browser.get('/auth/session')).status, 401);
    assertError(await stranger.post('/auth/password/reset', { key: first, password: 'sneaky other secret' }), 400, 'invalid_password_reset', 'key');
  });
});

describeEachDatabase('password reset with login on reset', { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_LOGIN_ON_PASSWORD_RESET: 'true' }, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`logs in after the reset (${kind})`, async () => {
      const { client: other, email } = await loggedInUser(server(), 'app');
      const client = await readyClient(server(), kind);
      await client.post('/auth/password/request', { email });
      const key = resetKeyFromMail(await nthMail(server().mail, email, 1));
      const reset = await client.post('/auth/password/reset', { key, password: NEW_PASSWORD });
      assert.equal(reset.status, 200);
      assert.equal(reset.body.meta.is_authenticated, true);
      assert.equal(reset.body.data.user.email, email);
      assert.equal(reset.body.data.methods[0].method, 'password_reset');
      if (kind === 'app') assert.ok(reset.body.meta.session_token);
      assert.equal((await client.get('/auth/session')).status, 200);
      // The session that reset survives; the user's other one does not.
      assert.equal((await other.get('/auth/session')).status, 410);
    });
  }
});

describeEachDatabase(
  'password reset and rate limits',
  {
    ACCOUNT_EMAIL_VERIFICATION: 'none',
    ACCOUNT_RATE_LIMITS: JSON.stringify({ login_failed: '50/m/ip,3/300s/key', reset_password: '50/m/ip,2/m/key', reset_password_from_key: '4/m/ip' }),
  },
  ({ server }) => {
    it('clears the failed-login lockout after a reset', async () => {
      const { email } = await loggedInUser(server(), 'app');
      const client = server().client('app');
      for (let i = 0; i < 3; i++) assertError(await client.post('/auth/login', { email, password: 'wrong guess' }), 400, 'email_password_mismatch', 'password');
      assertError(await client.post('/auth/login', { email, password: PASSWORD }), 400, 'too_many_login_attempts');
      await client.post('/auth/password/request', { email });
      const key = resetKeyFromMail(await nthMail(server().mail, email, 1));
      assert.equal((await client.post('/auth/password/reset', { key, password: NEW_PASSWORD })).status, 401);
      assert.equal((await client.post('/auth/login', { email, password: NEW_PASSWORD })).status, 200);
    });

    it('limits requests per address (429) and key lookups per ip (GET included)', async () => {
      const email = uniqueEmail();
      const client = server().client('app');
      assert.equal((await client.post('/auth/password/request', { email })).status, 200);
      assert.equal((await client.post('/auth/password/request', { email: email.toUpperCase() })).status, 200);
      const limited = await client.post('/auth/password/request', { email });
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.body, { status: 429 });
      // One reset above already spent a reset_password_from_key point.
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await client.get('/auth/password/reset', { 'x-password-reset-key': 'nope' })).status);
      assert.deepEqual(statuses, [400, 400, 400, 429]);
      assert.equal((await client.post('/auth/password/reset', { key: 'nope', password: NEW_PASSWORD })).status, 429);
    });
  },
);

const CODE_ENV = { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: 'true', ACCOUNT_PASSWORD_RESET_BY_CODE_MAX_ATTEMPTS: '3', ACCOUNT_PASSWORD_RESET_BY_CODE_TIMEOUT: '300' };

describeEachDatabase('password reset by code', CODE_ENV, ({ server }) => {
  it('reports the feature in /config and lists the flow, not pending', async () => {
    const config = await server().client('app').get('/config');
    assert.equal(config.body.data.account.password_reset_by_code_enabled, true);
    const session = await server().client('app').get('/auth/session');
    assert.deepEqual(flowStates(session.body).find((f) => f.id === 'password_reset_by_code'), { id: 'password_reset_by_code', is_pending: false });
  });

  for (const kind of CLIENTS) {
    it(`resets with the mailed code, once (${kind})`, async () => {
      const { email } = await loggedInUser(server(), 'app');
      const client = await readyClient(server(), kind);
      const request = await client.post('/auth/password/request', { email });
      assert.equal(request.status, 401);
      assert.deepEqual(flowStates(request.body).find((f) => f.id === 'password_reset_by_code'), { id: 'password_reset_by_code', is_pending: true });
      if (kind === 'app') assert.ok(request.body.meta.session_token);
      const code = codeFromMail(await nthMail(server().mail, email, 1));

      // Looking the code up costs no attempt: three lookups, then the reset.
      for (let i = 0; i < 3; i++) {
        const info = await client.get('/auth/password/reset', { 'x-password-reset-key': code.toLowerCase() });
        assert.equal(info.status, 200);
        assert.equal(info.body.data.user.email, email);
      }
      assertError(await client.post('/auth/password/reset', { key: code, password: 'short' }), 400, 'password_too_short', 'password');
      const reset = await client.post('/auth/password/reset', { key: code, password: NEW_PASSWORD });
      assert.equal(reset.status, 401);
      assert.deepEqual(flowStates(reset.body).find((f) => f.id === 'password_reset_by_code'), { id: 'password_reset_by_code', is_pending: false });
      assert.equal((await client.post('/auth/password/reset', { key: code, password: 'again another secret' })).status, 409);
      await loginClient(server(), kind, email, NEW_PASSWORD);
    });
  }

  it('drops the flow after the attempt budget (GET lookups count)', async () => {
    const { email } = await loggedInUser(server(), 'app');
    const client = server().client('app');
    await client.post('/auth/password/request', { email });
    const code = codeFromMail(await nthMail(server().mail, email, 1));
    for (let i = 0; i < 3; i++) assertError(await client.get('/auth/password/reset', { 'x-password-reset-key': `WRONG${i}` }), 400, 'incorrect_code', 'key');
    assert.equal((await client.get('/auth/password/reset', { 'x-password-reset-key': code })).status, 409);
    assert.equal((await client.post('/auth/password/reset', { key: code, password: NEW_PASSWORD })).status, 409);
    const session = await client.get('/auth/session');
    assert.equal(flowStates(session.body).find((f) => f.id === 'password_reset_by_code')?.is_pending, false);
  });

  it('spends at most the budget on a burst of parallel wrong codes, and refuses the right one after', async () => {
    const { email } = await loggedInUser(server(), 'app');
    const client = server().client('app');
    await client.post('/auth/password/request', { email });
    const code = codeFromMail(await nthMail(server().mail, email, 1));
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => client.post('/auth/password/reset', { key: `BAD${String(i).padStart(3, '0')}`, password: NEW_PASSWORD })),
    );
    const wrong = burst.filter((r) => r.status === 400);
    assert.ok(wrong.length <= 3, `wrong codes answered 400 ${wrong.length} times`);
    for (const r of wrong) assertError(r, 400, 'incorrect_code', 'key');
    assert.ok(burst.every((r) => r.status === 400 || r.status === 409));
    assert.equal((await client.post('/auth/password/reset', { key: code, password: NEW_PASSWORD })).status, 409);
    assert.equal((await server().client('app').post('/auth/login', { email, password: PASSWORD })).status, 200);
  });

  it('redeems a code exactly once under parallel requests', async () => {
    const { email } = await loggedInUser(server(), 'app');
    const client = server().client('app');
    await client.post('/auth/password/request', { email });
    const code = codeFromMail(await nthMail(server().mail, email, 1));
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => client.post('/auth/password/reset', { key: code, password: `parallel code secret ${i}` })));
    assert.equal(answers.filter((r) => r.status === 401).length, 1, answers.map((r) => r.status).join());
    assert.ok(answers.every((r) => r.status === 401 || r.status === 409));
  });

  it('answers an unknown address like a known one, and no code completes it', async () => {
    const unknown = uniqueEmail('nobody');
    const client = await readyClient(server(), 'browser');
    const response = await client.post('/auth/password/request', { email: unknown });
    assert.equal(response.status, 401);
    assert.deepEqual(flowStates(response.body).find((f) => f.id === 'password_reset_by_code'), { id: 'password_reset_by_code', is_pending: true });
    const notice = await server().mail.waitForMail({ to: unknown });
    assert.match(notice.subject, /No account/);
    assertError(await client.get('/auth/password/reset', { 'x-password-reset-key': 'ACDEFG' }), 400, 'incorrect_code', 'key');
  });

  it('expires the code (409), and 409 without a pending reset', async () => {
    const app = server().client('app');
    assert.equal((await app.get('/auth/password/reset', { 'x-password-reset-key': 'ACDEFG' })).status, 409);
    const { email } = await loggedInUser(server(), 'app');
    await app.post('/auth/password/request', { email });
    const code = codeFromMail(await nthMail(server().mail, email, 1));
    server().clock.advance(301_000);
    assert.equal((await app.get('/auth/password/reset', { 'x-password-reset-key': code })).status, 409);
  });
});

function extractKeys(text: string): string[] {
  return text.match(/\/password\/reset\/key\/[^\s]+/g) ?? [];
}

// Issue 22 item 10: a reset key covered the account, the address and the
// time it was issued, so a link in an old mailbox still worked after the
// user had logged in again or moved to another address. Now it is bound to
// the password hash, the last login and the address, as Django's are.
describeEachDatabase(
  'regression: a reset link dies once the account moves on (issue 22 item 10)',
  { ACCOUNT_EMAIL_VERIFICATION: 'none' },
  ({ server }) => {
    async function mailedKey(email: string, nth: number): Promise<string> {
      assert.equal((await server().client('app').post('/auth/password/request', { email })).status, 200);
      return resetKeyFromMail(await nthMail(server().mail, email, nth));
    }

    it('after a login since it was mailed', async () => {
      const { email } = await loggedInUser(server(), 'app');
      const key = await mailedKey(email, 1);
      assert.equal((await server().client('app').get('/auth/password/reset', { 'x-password-reset-key': key })).status, 200, 'valid until the login');
      await loginClient(server(), 'app', email);
      assertError(await server().client('app').get('/auth/password/reset', { 'x-password-reset-key': key }), 400, 'invalid_password_reset', 'key');
      assertError(await server().client('app').post('/auth/password/reset', { key, password: NEW_PASSWORD }), 400, 'invalid_password_reset', 'key');
      // A link asked for after that login works.
      const fresh = await mailedKey(email, 2);
      assert.equal((await server().client('app').post('/auth/password/reset', { key: fresh, password: NEW_PASSWORD })).status, 401);
    });

    it('after the address it was mailed to was changed', async () => {
      const { client, email } = await loggedInUser(server(), 'app');
      const key = await mailedKey(email, 1);
      const moved = uniqueEmail('moved');
      assert.equal((await client.post('/account/email', { email: moved })).status, 200);
      assert.equal((await client.patch('/account/email', { email: moved, primary: true })).status, 200);
      assert.equal((await client.delete('/account/email', { email })).status, 200);
      assertError(await server().client('app').post('/auth/password/reset', { key, password: NEW_PASSWORD }), 400, 'invalid_password_reset', 'key');
      await loginClient(server(), 'app', moved);
    });

    it('a key that only claims another state (its digest altered) is refused by its signature', async () => {
      const { email } = await loggedInUser(server(), 'app');
      const key = await mailedKey(email, 1);
      const dot = key.lastIndexOf('.');
      const tampered = `${key.slice(0, dot - 1)}${key[dot - 1] === 'A' ? 'B' : 'A'}${key.slice(dot)}`;
      assertError(await server().client('app').post('/auth/password/reset', { key: tampered, password: NEW_PASSWORD }), 400, 'invalid_password_reset', 'key');
    });
  },
);
