import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, readyClient, uniqueEmail } from '../support/accounts.js';
import { pendingSecondFactor, totpAccount, totpAt, nextPeriod } from './support.js';

// Every code check spends the login_failed limit, as in the reference: per
// IP, and 5 per 5 minutes per account (key mfa-auth-user-<id>). The
// counters are real-time windows; every request here comes from one address,
// so each suite sets the rule it tests and leaves the other one out of reach.

describeEachDatabase('second-factor lockout per account', { ACCOUNT_RATE_LIMITS: JSON.stringify({ login_failed: '1000/m/ip,5/300s/key' }) }, ({ server }) => {
  it('refuses even the right code after 5 wrong ones; other accounts are unaffected', async () => {
    const { email, secret } = await totpAccount(server(), 'app');
    const client = await pendingSecondFactor(server(), 'app', email);
    for (let i = 0; i < 5; i++) assertError(await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret, 5 + i) }), 400, 'incorrect_code', 'code');
    assertError(await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) }), 400, 'too_many_login_attempts', 'code');
    const other = await totpAccount(server(), 'app');
    const otherLogin = await pendingSecondFactor(server(), 'app', other.email);
    nextPeriod(server());
    assert.equal((await otherLogin.post('/auth/2fa/authenticate', { code: totpAt(server(), other.secret) })).status, 200);
  });

  it('a right code clears the account\'s count', async () => {
    const { email, secret } = await totpAccount(server(), 'app');
    const client = await pendingSecondFactor(server(), 'app', email);
    for (let i = 0; i < 4; i++) assertError(await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret, 5 + i) }), 400, 'incorrect_code', 'code');
    assert.equal((await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) })).status, 200);
    server().clock.advance(301_000);
    for (let i = 0; i < 5; i++) assertError(await client.post('/auth/2fa/reauthenticate', { code: totpAt(server(), secret, 5 + i) }), 400, 'incorrect_code', 'code');
    assertError(await client.post('/auth/2fa/reauthenticate', { code: totpAt(server(), secret, 1) }), 400, 'too_many_login_attempts', 'code');
  });
});

describeEachDatabase('second-factor lockout per address', { ACCOUNT_RATE_LIMITS: JSON.stringify({ login_failed: '7/m/ip' }) }, ({ server }) => {
  it('a right code does not reset the address\'s window (the reference resets it; not copied)', async () => {
    // Only failures count against the address: a right password or code gives
    // its point back, but never the points of the failures before it. 7 allowed.
    const alice = await totpAccount(server(), 'app');
    const bob = await totpAccount(server(), 'app');
    const aliceLogin = await pendingSecondFactor(server(), 'app', alice.email);
    for (let i = 0; i < 3; i++) assertError(await aliceLogin.post('/auth/2fa/authenticate', { code: totpAt(server(), alice.secret, 5 + i) }), 400, 'incorrect_code', 'code'); // 1-3
    assert.equal((await aliceLogin.post('/auth/2fa/authenticate', { code: totpAt(server(), alice.secret) })).status, 200);
    const bobLogin = await pendingSecondFactor(server(), 'app', bob.email);
    for (let i = 0; i < 4; i++) assertError(await bobLogin.post('/auth/2fa/authenticate', { code: totpAt(server(), bob.secret, 5 + i) }), 400, 'incorrect_code', 'code'); // 4-7
    assertError(await bobLogin.post('/auth/2fa/authenticate', { code: totpAt(server(), bob.secret) }), 400, 'too_many_login_attempts', 'code'); // 8
  });
});

// Issue 22 item 3: the per-account password rule counts by the typed
// username and the second-factor rule by the account, under one action. When
// both were plain strings, the username "mfa-auth-user-<id>" named account
// <id>'s second-factor counter.
describeEachDatabase(
  'regression: a username cannot reach an account\'s second-factor limit (issue 22 item 3)',
  {
    ACCOUNT_LOGIN_METHODS: 'email,username',
    ACCOUNT_SIGNUP_FIELDS: 'email*,username,password1*',
    ACCOUNT_RATE_LIMITS: JSON.stringify({ login_failed: '1000/m/ip,5/300s/key' }),
  },
  ({ server }) => {
    it('wrong passwords for the username mfa-auth-user-<id> leave account <id>\'s code check open', async () => {
      const victim = await totpAccount(server(), 'app');
      const victimId = (await victim.client.get('/auth/session')).body.data.user.id;
      const squatted = `mfa-auth-user-${victimId}`;
      const squatter = await readyClient(server(), 'app');
      const signup = await squatter.post('/auth/signup', { email: uniqueEmail('squat'), username: squatted, password: PASSWORD });
      assert.equal(signup.status, 200, JSON.stringify(signup.body));
      for (let i = 0; i < 6; i++) await server().client('app').post('/auth/login', { username: squatted, password: 'not the password at all' });
      assertError(await server().client('app').post('/auth/login', { username: squatted, password: PASSWORD }), 400, 'too_many_login_attempts');

      const login = await pendingSecondFactor(server(), 'app', victim.email);
      assert.equal((await login.post('/auth/2fa/authenticate', { code: totpAt(server(), victim.secret) })).status, 200);
    });

    it('and wrong codes for account <id> leave the username mfa-auth-user-<id> free to log in', async () => {
      const victim = await totpAccount(server(), 'app');
      const victimId = (await victim.client.get('/auth/session')).body.data.user.id;
      const squatted = `mfa-auth-user-${victimId}`;
      const owner = await readyClient(server(), 'app');
      assert.equal((await owner.post('/auth/signup', { email: uniqueEmail('owner'), username: squatted, password: PASSWORD })).status, 200);
      const login = await pendingSecondFactor(server(), 'app', victim.email);
      for (let i = 0; i < 5; i++) assertError(await login.post('/auth/2fa/authenticate', { code: totpAt(server(), victim.secret, 5 + i) }), 400, 'incorrect_code', 'code');
      assertError(await login.post('/auth/2fa/authenticate', { code: totpAt(server(), victim.secret) }), 400, 'too_many_login_attempts', 'code');
      assert.equal((await server().client('app').post('/auth/login', { username: squatted, password: PASSWORD })).status, 200);
    });
  },
);
