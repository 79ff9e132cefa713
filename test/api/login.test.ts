import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, flowIds, keyFromMail, mailsTo, nthMail, readyClient, signedUp, uniqueEmail, uniqueUsername } from '../support/accounts.js';

describeEachDatabase('signup and login', {}, ({ server }) => {
  it('signs up and logs in with email (app client)', async () => {
    const app = server().client('app');
    const signup = await app.post('/auth/signup', { email: 'alice@example.com', password: 'a long secret phrase' });
    assert.equal(signup.status, 200);
    assert.equal(signup.body.meta.is_authenticated, true);
    assert.equal(signup.body.data.user.email, 'alice@example.com');
    assert.ok(signup.body.meta.session_token);

    const other = server().client('app');
    const bad = await other.post('/auth/login', { email: 'alice@example.com', password: 'wrong password here' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].code, 'email_password_mismatch');
    assert.equal(bad.body.errors[0].param, 'password');

    const good = await other.post('/auth/login', { email: 'ALICE@example.com', password: 'a long secret phrase' });
    assert.equal(good.status, 200);
    const me = await other.get('/auth/session');
    assert.equal(me.status, 200);
    assert.equal(me.body.data.user.email, 'alice@example.com');
  });
});

describeEachDatabase('login by email', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  for (const kind of ['app', 'browser'] as const) {
    it(`logs in by email with a fresh session key (${kind})`, async () => {
      const { email } = await signedUp(server().client('app'));
      const client = await readyClient(server(), kind);
      const response = await client.post('/auth/login', { email, password: PASSWORD });
      assert.equal(response.status, 200);
      assert.equal(response.body.meta.is_authenticated, true);
      assert.equal(response.body.data.user.email, email);
      const [method] = response.body.data.methods;
      assert.equal(method.method, 'password');
      assert.equal(method.email, email);
      assert.equal(typeof method.at, 'number');
      if (kind === 'app') assert.ok(response.body.meta.session_token);
      else {
        assert.equal(response.body.meta.session_token, undefined, 'browsers get a cookie, not a token');
        assert.ok(client.cookies.get('sessionid'));
      }
      assert.equal((await client.get('/auth/session')).status, 200);
    });
  }

  it('an unknown account and a wrong password give the identical error', async () => {
    const { email } = await signedUp(server().client('app'));
    const wrong = await server().client('app').post('/auth/login', { email, password: 'not the password at all' });
    const unknown = await server().client('app').post('/auth/login', { email: uniqueEmail('nobody'), password: 'not the password at all' });
    assertError(wrong, 400, 'email_password_mismatch', 'password');
    assert.equal(unknown.status, wrong.status);
    assert.deepEqual(unknown.body, wrong.body);
  });

  it('an address with an internationalised domain signs up and logs in (was refused as invalid)', async () => {
    const email = `zoe-${uniqueUsername('idn')}@bücher.example`;
    await signedUp(server().client('app'), email);
    const login = await server().client('app').post('/auth/login', { email: email.toUpperCase(), password: PASSWORD });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(login.body.data.user.email, email);
    for (const bad of ['zoe@bü cher.example', 'zoe@xn--.example', 'zoë@example.com']) {
      assertError(await server().client('app').post('/auth/login', { email: bad, password: PASSWORD }), 400, 'invalid', 'email');
    }
  });

  it('answers 409 when already logged in', async () => {
    const client = server().client('app');
    const { email } = await signedUp(client);
    const again = await client.post('/auth/login', { email, password: PASSWORD });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, { status: 409 });
  });

  it('asks for the login field and the password', async () => {
    const app = server().client('app');
    assertError(await app.post('/auth/login', { password: PASSWORD }), 400, 'required', 'email');
    assertError(await app.post('/auth/login', { email: uniqueEmail() }), 400, 'required', 'password');
    assertError(await app.post('/auth/login', { email: 'not an address', password: PASSWORD }), 400, 'invalid', 'email');
  });

  it('a username is not a login when only email login is on', async () => {
    const app = server().client('app');
    assertError(await app.post('/auth/login', { username: 'someone', password: PASSWORD }), 400, 'required', 'email');
  });

  it('an inactive account cannot log in', async () => {
    const { email } = await signedUp(server().client('app'));
    const address = await server().app.deps.db.selectFrom('email_addresses').select('user_id').where('email_lower', '=', email).executeTakeFirstOrThrow();
    await server().app.deps.db.updateTable('users').set({ is_active: 0 }).where('id', '=', address.user_id).execute();
    const response = await server().client('app').post('/auth/login', { email, password: PASSWORD });
    assert.equal(response.status, 400);
    assert.equal(response.body.errors[0].code, 'account_inactive');
  });
});

describeEachDatabase(
  'login by username',
  { ACCOUNT_LOGIN_METHODS: 'username', ACCOUNT_SIGNUP_FIELDS: 'username*,email,password1*', ACCOUNT_EMAIL_VERIFICATION: 'none' },
  ({ server }) => {
    it('config lists username login', async () => {
      const config = await server().client('app').get('/config');
      assert.deepEqual(config.body.data.account.login_methods, ['username']);
      assert.equal(config.body.data.account.authentication_method, 'username');
    });

    for (const kind of ['app', 'browser'] as const) {
      it(`logs in by username, case-insensitively (${kind})`, async () => {
        const username = uniqueUsername('Lin');
        const signup = await server().client('app').post('/auth/signup', { username, password: PASSWORD });
        assert.equal(signup.status, 200, JSON.stringify(signup.body));
        assert.equal(signup.body.data.user.username, username);
        assert.equal(signup.body.data.user.email, undefined);

        const client = await readyClient(server(), kind);
        const response = await client.post('/auth/login', { username: username.toLowerCase(), password: PASSWORD });
        assert.equal(response.status, 200);
        assert.equal(response.body.data.user.username, username);
        assert.equal(response.body.data.methods[0].username, username);
      });
    }

    it('an unknown username and a wrong password give the identical error', async () => {
      const username = uniqueUsername('known');
      await server().client('app').post('/auth/signup', { username, email: uniqueEmail(), password: PASSWORD });
      const wrong = await server().client('app').post('/auth/login', { username, password: 'not the password at all' });
      const unknown = await server().client('app').post('/auth/login', { username: uniqueUsername('nobody'), password: 'not the password at all' });
      assertError(wrong, 400, 'username_password_mismatch', 'password');
      assert.deepEqual(unknown.body, wrong.body);
    });

    it('an email is not a login when only username login is on', async () => {
      const email = uniqueEmail();
      await server().client('app').post('/auth/signup', { username: uniqueUsername(), email, password: PASSWORD });
      assertError(await server().client('app').post('/auth/login', { email, password: PASSWORD }), 400, 'required', 'username');
    });
  },
);

describeEachDatabase(
  'login by email or username',
  { ACCOUNT_LOGIN_METHODS: 'email,username', ACCOUNT_SIGNUP_FIELDS: 'email*,username*,password1*', ACCOUNT_EMAIL_VERIFICATION: 'none' },
  ({ server }) => {
    it('either works for the same account', async () => {
      const email = uniqueEmail();
      const username = uniqueUsername();
      assert.equal((await server().client('app').post('/auth/signup', { email, username, password: PASSWORD })).status, 200);
      assert.equal((await server().client('app').post('/auth/login', { email, password: PASSWORD })).status, 200);
      assert.equal((await server().client('app').post('/auth/login', { username, password: PASSWORD })).status, 200);
      const config = await server().client('app').get('/config');
      assert.equal(config.body.data.account.authentication_method, 'username_email');
    });
  },
);

describeEachDatabase('login with mandatory verification', { ACCOUNT_EMAIL_VERIFICATION: 'mandatory' }, ({ server }) => {
  for (const kind of ['app', 'browser'] as const) {
    it(`an unverified address answers 401 verify_email pending and mails a link (${kind})`, async () => {
      const email = uniqueEmail();
      assert.equal((await server().client('app').post('/auth/signup', { email, password: PASSWORD })).status, 401);
      await server().mail.waitForMail({ to: email });

      const client = await readyClient(server(), kind);
      const response = await client.post('/auth/login', { email, password: PASSWORD });
      assert.equal(response.status, 401);
      assert.equal(response.body.meta.is_authenticated, false);
      assert.deepEqual(flowIds(response.body), ['login', 'signup', 'verify_email!']);
      if (kind === 'app') assert.ok(response.body.meta.session_token);
      const key = keyFromMail(await nthMail(server().mail, email, 2));
      const verified = await client.post('/auth/email/verify', { key });
      assert.equal(verified.status, 200);
      assert.equal(verified.body.meta.is_authenticated, true);
    });
  }

  it('a wrong password on an unverified address is a plain 400, without mail', async () => {
    const email = uniqueEmail();
    await server().client('app').post('/auth/signup', { email, password: PASSWORD });
    await server().mail.waitForMail({ to: email });
    assertError(await server().client('app').post('/auth/login', { email, password: 'not the password at all' }), 400, 'email_password_mismatch', 'password');
    assert.equal(mailsTo(server().mail, email).length, 1);
  });

  it('a verified address logs in directly', async () => {
    const email = uniqueEmail();
    const app = server().client('app');
    await app.post('/auth/signup', { email, password: PASSWORD });
    const key = keyFromMail(await server().mail.waitForMail({ to: email }));
    assert.equal((await app.post('/auth/email/verify', { key })).status, 200);
    const login = await server().client('app').post('/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 200);
  });
});

describeEachDatabase(
  'login by username with mandatory verification',
  { ACCOUNT_LOGIN_METHODS: 'username', ACCOUNT_SIGNUP_FIELDS: 'email*,username*,password1*', ACCOUNT_EMAIL_VERIFICATION: 'mandatory' },
  ({ server }) => {
    it("holds the login until the account's address is verified", async () => {
      const email = uniqueEmail();
      const username = uniqueUsername();
      assert.equal((await server().client('app').post('/auth/signup', { email, username, password: PASSWORD })).status, 401);
      await server().mail.waitForMail({ to: email });
      const app = server().client('app');
      const login = await app.post('/auth/login', { username, password: PASSWORD });
      assert.equal(login.status, 401);
      assert.deepEqual(flowIds(login.body), ['login', 'signup', 'verify_email!']);
      const key = keyFromMail(await nthMail(server().mail, email, 2));
      const verified = await app.post('/auth/email/verify', { key });
      assert.equal(verified.status, 200);
      assert.equal(verified.body.data.user.username, username);
      assert.equal(verified.body.data.methods[0].username, username);
    });
  },
);
