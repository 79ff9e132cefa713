import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, codeFromMail, flowIds, keyFromMail, mailsTo, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import { resetKeyFromMail } from '../account/helpers.js';
import { CLIENTS, nextPeriod, pendingFlow, pendingSecondFactor, recoveryCodes, totpAccount, totpAt, verifiedAccount } from './support.js';

// The second factor after every first factor: no path logs a user with
// TOTP in without it, on either client.

const MFA_PENDING = { id: 'mfa_authenticate', is_pending: true, types: ['recovery_codes', 'totp'] };

describeEachDatabase('second factor after a password', {}, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`holds the login at mfa_authenticate until a code of the user completes it (${kind})`, async () => {
      const { email, secret } = await totpAccount(server(), kind);
      const client = await readyClient(server(), kind);
      const login = await client.post('/auth/login', { email, password: PASSWORD });
      assert.equal(login.status, 401);
      assert.deepEqual(login.body.data.flows, [{ id: 'login' }, { id: 'signup' }, MFA_PENDING]);
      assert.equal(login.body.meta.is_authenticated, false);
      if (kind === 'app') assert.ok(login.body.meta.session_token, 'the 401 carries the session token');
      const token = client.sessionToken;
      const cookie = client.cookies.get('sessionid');
      const csrf = client.cookies.get('csrftoken');

      const session = await client.get('/auth/session');
      assert.equal(session.status, 401);
      assert.deepEqual(pendingFlow(session.body), MFA_PENDING);
      assert.equal(session.body.meta.session_token, undefined, 'later responses carry no token');

      const wrong = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret, 3) });
      assertError(wrong, 400, 'incorrect_code', 'code');
      assert.deepEqual(pendingFlow((await client.get('/auth/session')).body), MFA_PENDING, 'a wrong code leaves the login pending');

      const done = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.meta.is_authenticated, true);
      assert.deepEqual(done.body.data.methods.map((m: any) => m.method), ['password', 'mfa']);
      assert.equal(done.body.data.methods[0].email, email);
      assert.equal(done.body.data.methods[1].type, 'totp');
      if (kind === 'app') {
        // Issue 22 item 13: as in the reference, the finished login has a new key, and the pending one's is dead.
        assert.ok(done.body.meta.session_token, 'the app gets the token of the finished login');
        assert.notEqual(done.body.meta.session_token, token);
        const old = await server().client('app').get('/auth/session', { 'x-session-token': token! });
        assert.equal(old.status, 410, 'the token of the half-finished login no longer works');
      } else {
        assert.notEqual(client.cookies.get('sessionid'), cookie, 'a new session cookie');
        assert.notEqual(client.cookies.get('csrftoken'), csrf, 'and a new CSRF token');
      }
      const me = await client.get('/auth/session');
      assert.equal(me.status, 200);
      assert.equal(me.body.data.user.email, email);
    });
  }

  it('answers 401 with is_authenticated null when no second factor is pending', async () => {
    const client = await readyClient(server(), 'app');
    const response = await client.post('/auth/2fa/authenticate', { code: '123456' });
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { status: 401, data: { flows: [{ id: 'login' }, { id: 'signup' }] }, meta: { is_authenticated: null } });
    const browser = await readyClient(server(), 'browser');
    assert.equal((await browser.post('/auth/2fa/authenticate', { code: '123456' })).body.meta.is_authenticated, null);
  });

  it('a code completes only its own pending login: not another user\'s, and not a second one of the same user', async () => {
    const alice = await totpAccount(server(), 'app');
    const bob = await totpAccount(server(), 'app');
    const alicePending = await pendingSecondFactor(server(), 'app', alice.email);
    const bobPending = await pendingSecondFactor(server(), 'app', bob.email);
    assertError(await bobPending.post('/auth/2fa/authenticate', { code: totpAt(server(), alice.secret) }), 400, 'incorrect_code', 'code');
    const [aliceRecovery] = await recoveryCodes(alice.client);
    assertError(await bobPending.post('/auth/2fa/authenticate', { code: aliceRecovery }), 400, 'incorrect_code', 'code');

    const code = totpAt(server(), alice.secret);
    const alicePending2 = await pendingSecondFactor(server(), 'app', alice.email);
    assert.equal((await alicePending.post('/auth/2fa/authenticate', { code })).status, 200);
    assertError(await alicePending2.post('/auth/2fa/authenticate', { code }), 400, 'incorrect_code', 'code');
    assert.equal((await bobPending.post('/auth/2fa/authenticate', { code: totpAt(server(), bob.secret) })).status, 200);
  });

  it('the pending login expires after ACCOUNT_LOGIN_TIMEOUT', async () => {
    const { email, secret } = await totpAccount(server(), 'app');
    const client = await pendingSecondFactor(server(), 'app', email);
    server().clock.advance(901_000);
    assert.equal(pendingFlow((await client.get('/auth/session')).body), undefined, 'no longer listed as pending');
    const late = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
    assert.equal(late.status, 401);
    assert.equal(late.body.meta.is_authenticated, null);
    assert.equal(pendingFlow(late.body), undefined);
    assert.equal(pendingFlow((await client.get('/auth/session')).body), undefined);
  });

  it('logging out drops the pending login; the app\'s token is then gone', async () => {
    const { email, secret } = await totpAccount(server(), 'app');
    const client = await pendingSecondFactor(server(), 'app', email);
    const token = client.sessionToken!;
    const logout = await client.delete('/auth/session');
    assert.equal(logout.status, 401);
    assert.equal(pendingFlow(logout.body), undefined);
    const stale = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) }, { 'x-session-token': token });
    assert.equal(stale.status, 410);
  });

  it('a password reset logs nobody in and the next login still asks for the second factor', async () => {
    const { client: owner, email } = await totpAccount(server(), 'app');
    const visitor = await readyClient(server(), 'app');
    const before = mailsTo(server().mail, email).length;
    assert.equal((await visitor.post('/auth/password/request', { email })).status, 200);
    const key = resetKeyFromMail(await nthMail(server().mail, email, before + 1));
    const reset = await visitor.post('/auth/password/reset', { key, password: 'another long passphrase' });
    assert.equal(reset.status, 401);
    assert.equal(pendingFlow(reset.body), undefined);
    assert.equal((await owner.get('/auth/session')).status, 410, 'the other sessions ended');
    const login = await (await readyClient(server(), 'app')).post('/auth/login', { email, password: 'another long passphrase' });
    assert.equal(login.status, 401);
    assert.deepEqual(pendingFlow(login.body), MFA_PENDING);
  });

  it('logs in while TOTP is on for none of its users: no stage for accounts without MFA', async () => {
    const { email } = await verifiedAccount(server(), 'app');
    const login = await (await readyClient(server(), 'app')).post('/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 200);
    assert.deepEqual(login.body.data.methods.map((m: any) => m.method), ['password']);
  });

  for (const code of ['totp', 'recovery code'] as const) {
    it(`20 parallel submissions of one ${code} complete exactly one login`, async () => {
      const { client, email, secret } = await totpAccount(server(), 'app');
      const pending = [];
      for (let i = 0; i < 20; i++) pending.push(await pendingSecondFactor(server(), 'app', email));
      nextPeriod(server());
      const value = code === 'totp' ? totpAt(server(), secret) : (await recoveryCodes(client))[0]!;
      const results = await Promise.all(pending.map((c) => c.post('/auth/2fa/authenticate', { code: value })));
      const statuses = results.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
      for (const r of results.filter((r) => r.status !== 200)) assertError(r, 400, 'incorrect_code', 'code');
    });

    it(`20 parallel submissions of one ${code} in one session complete it once`, async () => {
      const { client, email, secret } = await totpAccount(server(), 'browser');
      const pending = await pendingSecondFactor(server(), 'browser', email);
      nextPeriod(server());
      const value = code === 'totp' ? totpAt(server(), secret) : (await recoveryCodes(client))[0]!;
      const results = await Promise.all(Array.from({ length: 20 }, () => pending.post('/auth/2fa/authenticate', { code: value })));
      const statuses = results.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
      if (code === 'recovery code') assert.equal((await recoveryCodes(client)).length, 9, 'exactly one code spent');
    });
  }
});

describeEachDatabase('second factor after other first factors', { ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true', ACCOUNT_LOGIN_ON_PASSWORD_RESET: 'true' }, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`after a login code (${kind})`, async () => {
      const { email, secret } = await totpAccount(server(), kind);
      const client = await readyClient(server(), kind);
      assert.equal((await client.post('/auth/code/request', { email })).status, 401);
      const mail = await nthMail(server().mail, email, mailsTo(server().mail, email).length);
      const confirm = await client.post('/auth/code/confirm', { code: codeFromMail(mail) });
      assert.equal(confirm.status, 401, JSON.stringify(confirm.body));
      assert.deepEqual(pendingFlow(confirm.body), MFA_PENDING);
      const done = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
      assert.equal(done.status, 200);
      assert.deepEqual(done.body.data.methods.map((m: any) => m.method), ['code', 'mfa']);
    });

    it(`after a password reset that logs in (${kind})`, async () => {
      const { email, secret } = await totpAccount(server(), kind);
      const client = await readyClient(server(), kind);
      const before = mailsTo(server().mail, email).length;
      assert.equal((await client.post('/auth/password/request', { email })).status, 200);
      const key = resetKeyFromMail(await nthMail(server().mail, email, before + 1));
      const reset = await client.post('/auth/password/reset', { key, password: 'another long passphrase' });
      assert.equal(reset.status, 401, JSON.stringify(reset.body));
      assert.deepEqual(pendingFlow(reset.body), MFA_PENDING);
      const done = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
      assert.equal(done.status, 200);
      assert.deepEqual(done.body.data.methods.map((m: any) => m.method), ['password_reset', 'mfa']);
    });
  }
});

describeEachDatabase('second factor after email verification', { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', MFA_ALLOW_UNVERIFIED_EMAIL: 'true' }, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`a login held for verification then waits for the second factor (${kind})`, async () => {
      // An account with TOTP whose second address is not verified yet.
      const owner = await readyClient(server(), kind);
      const email = uniqueEmail('mfa');
      assert.equal((await owner.post('/auth/signup', { email, password: PASSWORD })).status, 401);
      const verified = await owner.post('/auth/email/verify', { key: keyFromMail(await nthMail(server().mail, email, 1)) });
      assert.equal(verified.status, 200);
      assert.equal((await owner.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
      const offer = await owner.get('/account/authenticators/totp');
      const secret = offer.body.meta.secret;
      assert.equal((await owner.post('/account/authenticators/totp', { code: totpAt(server(), secret) })).status, 200);
      const second = uniqueEmail('second');
      assert.equal((await owner.post('/account/email', { email: second })).status, 200);

      const client = await readyClient(server(), kind);
      const login = await client.post('/auth/login', { email: second, password: PASSWORD });
      assert.deepEqual(flowIds(login.body), ['login', 'signup', 'verify_email!']);
      const key = keyFromMail(await nthMail(server().mail, second, mailsTo(server().mail, second).length));
      const confirmed = await client.post('/auth/email/verify', { key });
      assert.equal(confirmed.status, 401, JSON.stringify(confirmed.body));
      assert.deepEqual(pendingFlow(confirmed.body), MFA_PENDING);
      const done = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
      assert.equal(done.status, 200);
      assert.deepEqual(done.body.data.methods.map((m: any) => [m.method, m.email]), [['password', second], ['mfa', undefined]]);
    });
  }
});

describeEachDatabase('second factor with JWTs', { HEADLESS_TOKEN_STRATEGY: 'jwt', HEADLESS_JWT_ALGORITHM: 'HS256' }, ({ server }) => {
  it('issues access and refresh tokens only once the second factor is passed', async () => {
    const { email, secret } = await totpAccount(server(), 'app');
    const client = await readyClient(server(), 'app');
    const login = await client.post('/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 401);
    assert.ok(login.body.meta.session_token);
    assert.equal(login.body.meta.access_token, undefined);
    assert.equal(login.body.meta.refresh_token, undefined);
    const done = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
    assert.equal(done.status, 200);
    assert.ok(done.body.meta.access_token);
    assert.ok(done.body.meta.refresh_token);
    const bearer = server().client('app');
    const me = await bearer.get('/auth/session', { authorization: `Bearer ${done.body.meta.access_token}` });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.data.methods.map((m: any) => m.method), ['password', 'mfa']);
  });
});
