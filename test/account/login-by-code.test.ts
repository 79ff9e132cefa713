import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../../src/config/config.js';
import { describeEachDatabase, TEST_SECRET } from '../support/server.js';
import { PASSWORD, assertError, codeFromMail, flowIds, mailsTo, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import type { ApiClient } from '../support/client.js';
import { CLIENTS, flowStates, loggedInUser } from './helpers.js';

const ENV = {
  ACCOUNT_EMAIL_VERIFICATION: 'none',
  ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true',
  ACCOUNT_LOGIN_BY_CODE_MAX_ATTEMPTS: '3',
  ACCOUNT_LOGIN_BY_CODE_TIMEOUT: '300',
};

/** Registers an account from its own client, so the test's client stays anonymous. */
async function account(server: Parameters<typeof loggedInUser>[0]): Promise<string> {
  return (await loggedInUser(server, 'app')).email;
}

async function requestCode(client: ApiClient, email: string): Promise<void> {
  const response = await client.post('/auth/code/request', { email });
  assert.equal(response.status, 401, JSON.stringify(response.body));
}

describeEachDatabase('login by code', ENV, ({ server }) => {
  it('is reported in /config and listed after login', async () => {
    const app = server().client('app');
    assert.equal((await app.get('/config')).body.data.account.login_by_code_enabled, true);
    assert.deepEqual(flowIds((await app.get('/auth/session')).body), ['login', 'login_by_code', 'signup']);
  });

  for (const kind of CLIENTS) {
    it(`logs in with the mailed code (${kind})`, async () => {
      const email = await account(server());
      const client = await readyClient(server(), kind);
      const request = await client.post('/auth/code/request', { email: email.toUpperCase() });
      assert.equal(request.status, 401);
      assert.deepEqual(flowIds(request.body), ['login', 'login_by_code!', 'signup']);
      assert.equal(request.body.meta.is_authenticated, false);
      if (kind === 'app') assert.ok(request.body.meta.session_token, 'the app gets a temporary session token');
      else assert.ok(client.cookies.get('sessionid'));

      const mail = await nthMail(server().mail, email, 1);
      const code = codeFromMail(mail);
      assert.match(code, /^[ACDEFGHJKMNPQRTUVWXY34679]{6}$/);
      const confirm = await client.post('/auth/code/confirm', { code: code.toLowerCase() });
      assert.equal(confirm.status, 200);
      assert.equal(confirm.body.meta.is_authenticated, true);
      assert.equal(confirm.body.data.user.email, email);
      assert.equal(confirm.body.data.methods[0].method, 'code');
      assert.equal(confirm.body.data.methods[0].email, email);
      assert.equal((await client.get('/auth/session')).status, 200);
      // Single use: the flow is gone.
      assert.equal((await client.post('/auth/code/confirm', { code })).status, 409);
    });
  }

  it('answers 409 to a confirmation with nothing pending, and 409 when logged in', async () => {
    const app = server().client('app');
    const response = await app.post('/auth/code/confirm', { code: 'ACDEFG' });
    assert.equal(response.status, 409);
    assert.deepEqual(response.body, { status: 409 });
    const { client } = await loggedInUser(server(), 'app');
    assert.equal((await client.post('/auth/code/request', { email: uniqueEmail() })).status, 409);
  });

  it('validates the request', async () => {
    const app = server().client('app');
    assertError(await app.post('/auth/code/request', {}), 400, 'required', 'email');
    assertError(await app.post('/auth/code/request', { email: 'not an address' }), 400, 'invalid', 'email');
    assertError(await app.post('/auth/code/confirm', {}), 400, 'required', 'code');
  });

  it('answers an unknown address exactly like a known one, mails a notice, and no code completes it', async () => {
    const known = await account(server());
    const unknown = uniqueEmail('nobody');
    const a = server().client('app');
    const b = server().client('app');
    const knownAnswer = await a.post('/auth/code/request', { email: known });
    const unknownAnswer = await b.post('/auth/code/request', { email: unknown });
    assert.equal(knownAnswer.status, unknownAnswer.status);
    assert.deepEqual(knownAnswer.body.data, unknownAnswer.body.data);
    assert.equal(typeof unknownAnswer.body.meta.session_token, 'string');
    const notice = await server().mail.waitForMail({ to: unknown });
    assert.match(notice.subject, /No account/);
    assertError(await b.post('/auth/code/confirm', { code: 'ACDEFG' }), 400, 'incorrect_code', 'code');
  });

  it('drops the flow once the attempts are spent', async () => {
    const email = await account(server());
    const client = server().client('app');
    await requestCode(client, email);
    const code = codeFromMail(await nthMail(server().mail, email, 1));
    for (let i = 0; i < 3; i++) assertError(await client.post('/auth/code/confirm', { code: `WRNG${i}X` }), 400, 'incorrect_code', 'code');
    assert.equal((await client.post('/auth/code/confirm', { code })).status, 409);
    assert.deepEqual(flowIds((await client.get('/auth/session')).body), ['login', 'login_by_code', 'signup']);
  });

  it('spends at most the budget on a burst of parallel wrong codes, and refuses the right one after', async () => {
    for (const kind of CLIENTS) {
      const email = await account(server());
      const client = await readyClient(server(), kind);
      await requestCode(client, email);
      const code = codeFromMail(await nthMail(server().mail, email, 1));
      const burst = await Promise.all(Array.from({ length: 15 }, (_, i) => client.post('/auth/code/confirm', { code: `BAD${String(i).padStart(3, '0')}` })));
      const wrong = burst.filter((r) => r.status === 400);
      assert.ok(wrong.length <= 3, `${kind}: ${wrong.length} wrong codes were checked`);
      assert.ok(burst.every((r) => r.status === 400 || r.status === 409), burst.map((r) => r.status).join());
      assert.equal((await client.post('/auth/code/confirm', { code })).status, 409);
    }
  });

  it('logs in exactly once when the right code arrives in parallel', async () => {
    const email = await account(server());
    const client = server().client('app');
    await requestCode(client, email);
    const code = codeFromMail(await nthMail(server().mail, email, 1));
    const token = client.sessionToken!;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => server().client('app').post('/auth/code/confirm', { code }, { 'x-session-token': token })),
    );
    assert.equal(answers.filter((r) => r.status === 200).length, 1, answers.map((r) => r.status).join());
    assert.ok(answers.every((r) => r.status === 200 || r.status === 409));
  });

  it('expires the code (409)', async () => {
    const email = await account(server());
    const client = server().client('app');
    await requestCode(client, email);
    const code = codeFromMail(await nthMail(server().mail, email, 1));
    server().clock.advance(301_000);
    assert.equal((await client.post('/auth/code/confirm', { code })).status, 409);
  });

  it('resends a new code that keeps the attempt count', async () => {
    const email = await account(server());
    const client = await readyClient(server(), 'browser');
    await requestCode(client, email);
    const first = codeFromMail(await nthMail(server().mail, email, 1));
    for (let i = 0; i < 2; i++) assertError(await client.post('/auth/code/confirm', { code: `NOPE${i}Q` }), 400, 'incorrect_code', 'code');
    const resend = await client.post('/auth/code/resend');
    assert.equal(resend.status, 200);
    assert.deepEqual(resend.body, { status: 200 });
    const second = codeFromMail(await nthMail(server().mail, email, 2));
    assert.notEqual(second, first);
    // The old code is dead, and it was the last attempt: the flow is gone.
    assertError(await client.post('/auth/code/confirm', { code: first }), 400, 'incorrect_code', 'code');
    assert.equal((await client.post('/auth/code/confirm', { code: second })).status, 409);
  });

  it('resends up to the limit, and 409 with nothing pending', async () => {
    const email = await account(server());
    const client = server().client('app');
    assert.equal((await client.post('/auth/code/resend')).status, 409);
    await requestCode(client, email);
    for (let i = 0; i < 3; i++) assert.equal((await client.post('/auth/code/resend')).status, 200);
    assert.equal((await client.post('/auth/code/resend')).status, 409);
    const last = codeFromMail(await nthMail(server().mail, email, 4));
    assert.equal((await client.post('/auth/code/confirm', { code: last })).status, 200);
  });
});

describeEachDatabase('login by code with mandatory verification', { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true' }, ({ server }) => {
  it('verifies the address the code reached', async () => {
    const email = uniqueEmail();
    const signup = await server().client('app').post('/auth/signup', { email, password: PASSWORD });
    assert.equal(signup.status, 401);
    const client = server().client('app');
    await requestCode(client, email);
    const code = codeFromMail(mailsTo(server().mail, email).find((m) => /sign-in code/.test(m.subject)) ?? (await server().mail.waitForMail({ to: email, subjectIncludes: 'sign-in code' })));
    const confirm = await client.post('/auth/code/confirm', { code });
    assert.equal(confirm.status, 200);
    const addresses = await client.get('/account/email');
    assert.deepEqual(addresses.body.data, [{ email, primary: true, verified: true }]);
    // A password login no longer waits for verification either.
    assert.equal((await server().client('app').post('/auth/login', { email, password: PASSWORD })).status, 200);
  });
});

describeEachDatabase(
  'login by code rate limits',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true', ACCOUNT_RATE_LIMITS: JSON.stringify({ request_login_code: '50/m/ip,2/m/key' }) },
  ({ server }) => {
    it('limits code requests per address (400 too_many_login_attempts) and resends (429)', async () => {
      const email = await account(server());
      const client = server().client('app');
      await requestCode(client, email);
      assert.equal((await client.post('/auth/code/resend')).status, 200);
      assert.equal((await client.post('/auth/code/resend')).status, 429);
      assertError(await server().client('app').post('/auth/code/request', { email }), 400, 'too_many_login_attempts', 'email');
    });
  },
);

describeEachDatabase('login by code disabled', {}, ({ server }) => {
  it('is off by default: not in /config, not listed, no route', async () => {
    const app = server().client('app');
    assert.equal((await app.get('/config')).body.data.account.login_by_code_enabled, false);
    assert.ok(!flowStates((await app.get('/auth/session')).body).some((f) => f.id === 'login_by_code'));
    assert.equal((await app.post('/auth/code/request', { email: uniqueEmail() })).status, 404);
  });
});

describe('login by code settings', () => {
  it('refuses codes that live longer than ten minutes', () => {
    assert.throws(() => loadConfig({ SECRET_KEY: TEST_SECRET, ACCOUNT_LOGIN_BY_CODE_TIMEOUT: '601' }), ConfigError);
    assert.throws(() => loadConfig({ SECRET_KEY: TEST_SECRET, ACCOUNT_PASSWORD_RESET_BY_CODE_TIMEOUT: '900' }), ConfigError);
    assert.throws(() => loadConfig({ SECRET_KEY: TEST_SECRET, ACCOUNT_LOGIN_BY_CODE_SUPPORTS_RESEND: 'maybe' }), ConfigError);
    const config = loadConfig({ SECRET_KEY: TEST_SECRET, ACCOUNT_LOGIN_BY_CODE_SUPPORTS_RESEND: 'false' });
    assert.equal(config.account.loginByCode.maxResends, 0);
  });
});
