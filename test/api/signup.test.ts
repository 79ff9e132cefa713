import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, flowIds, keyFromMail, mailsTo, nthMail, readyClient, signedUp, uniqueEmail, uniqueUsername } from '../support/accounts.js';

describeEachDatabase('signup, verification none', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  for (const kind of ['app', 'browser'] as const) {
    it(`signs up and is logged in at once, without mail (${kind})`, async () => {
      const client = await readyClient(server(), kind);
      const email = uniqueEmail();
      const response = await client.post('/auth/signup', { email, password: PASSWORD });
      assert.equal(response.status, 200);
      assert.equal(response.body.meta.is_authenticated, true);
      assert.equal(response.body.data.user.email, email);
      assert.equal(response.body.data.user.has_usable_password, true);
      assert.deepEqual(response.body.data.methods, [], 'signing up records no method, as in the reference');
      if (kind === 'app') assert.ok(response.body.meta.session_token);
      else {
        assert.equal(response.body.meta.session_token, undefined);
        assert.ok(client.cookies.get('sessionid'));
      }
      const me = await client.get('/auth/session');
      assert.equal(me.status, 200);
      assert.equal(me.body.data.user.email, email);
      assert.equal(mailsTo(server().mail, email).length, 0);
    });
  }

  it('answers 400 email_taken for a taken address, whatever its case', async () => {
    const { email } = await signedUp(server().client('app'));
    const response = await server().client('app').post('/auth/signup', { email: email.toUpperCase(), password: PASSWORD });
    assertError(response, 400, 'email_taken', 'email');
  });

  it('parallel signups with one address: one account, the others email_taken, never a 500', async () => {
    for (let round = 0; round < 3; round++) {
      const email = uniqueEmail('race');
      const burst = await Promise.all(Array.from({ length: 12 }, () => server().client('app').post('/auth/signup', { email, password: PASSWORD })));
      const statuses = burst.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
      for (const r of burst) if (r.status !== 200) assertError(r, 400, 'email_taken', 'email');
    }
  });

  it('answers 409 when already logged in', async () => {
    const client = server().client('app');
    await signedUp(client);
    const again = await client.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, { status: 409 });
  });

  it('reports field errors with their param', async () => {
    const app = server().client('app');
    assertError(await app.post('/auth/signup', { password: PASSWORD }), 400, 'required', 'email');
    assertError(await app.post('/auth/signup', { email: uniqueEmail() }), 400, 'required', 'password');
    assertError(await app.post('/auth/signup', { email: 'not-an-address', password: PASSWORD }), 400, 'invalid', 'email');
    assertError(await app.post('/auth/signup', { email: uniqueEmail(), password: 'x7#q' }), 400, 'password_too_short', 'password');
    assertError(await app.post('/auth/signup', { email: uniqueEmail(), password: 'iloveyou' }), 400, 'password_too_common', 'password');
    // A fixed address: a random one's hex digits could make the password "too similar" as well.
    assertError(await app.post('/auth/signup', { email: 'numbers.only@example.com', password: '8405719263' }), 400, 'password_entirely_numeric', 'password');
    assertError(await app.post('/auth/signup', { email: 'margaret.hamilton@example.com', password: 'margarethamilton' }), 400, 'password_too_similar', 'password');
    // Nothing was created by the failures: the session is still anonymous.
    assert.equal((await app.get('/auth/session')).status, 401);
  });

  it('lists every problem at once', async () => {
    const response = await server().client('app').post('/auth/signup', { email: 'nope', password: 'short' });
    assert.equal(response.status, 400);
    const codes = response.body.errors.map((e: { code: string; param: string }) => `${e.param}:${e.code}`);
    assert.ok(codes.includes('email:invalid'), codes.join());
    assert.ok(codes.includes('password:password_too_short'), codes.join());
  });
});

describeEachDatabase(
  'signup with usernames',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_SIGNUP_FIELDS: 'email*,username*,password1*', ACCOUNT_USERNAME_BLACKLIST: 'admin' },
  ({ server }) => {
    it('signs up with a username and shows it', async () => {
      const username = uniqueUsername('ada');
      const response = await server().client('app').post('/auth/signup', { email: uniqueEmail(), username, password: PASSWORD });
      assert.equal(response.status, 200);
      assert.equal(response.body.data.user.username, username);
    });

    it('answers username_taken for a taken username, whatever its case', async () => {
      const username = uniqueUsername('grace');
      await server().client('app').post('/auth/signup', { email: uniqueEmail(), username, password: PASSWORD });
      const response = await server().client('app').post('/auth/signup', { email: uniqueEmail(), username: username.toUpperCase(), password: PASSWORD });
      assertError(response, 400, 'username_taken', 'username');
    });

    it('parallel signups with one username: one account, the others username_taken, never a 500', async () => {
      for (let round = 0; round < 3; round++) {
        const username = uniqueUsername('race');
        const burst = await Promise.all(
          Array.from({ length: 12 }, () => server().client('app').post('/auth/signup', { email: uniqueEmail(), username, password: PASSWORD })),
        );
        const statuses = burst.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
        for (const r of burst) if (r.status !== 200) assertError(r, 400, 'username_taken', 'username');
      }
    });

    it('checks the username field', async () => {
      const app = server().client('app');
      assertError(await app.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD }), 400, 'required', 'username');
      assertError(await app.post('/auth/signup', { email: uniqueEmail(), username: 'has space', password: PASSWORD }), 400, 'invalid', 'username');
      assertError(await app.post('/auth/signup', { email: uniqueEmail(), username: 'Admin', password: PASSWORD }), 400, 'username_blacklisted', 'username');
    });
  },
);

describeEachDatabase('signup closed', { ACCOUNT_SIGNUP_OPEN: 'false' }, ({ server }) => {
  it('answers 403 and leaves signup out of the flows and config', async () => {
    const app = server().client('app');
    const response = await app.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD });
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { status: 403 });
    const session = await app.get('/auth/session');
    assert.deepEqual(flowIds(session.body), ['login']);
    const config = await app.get('/config');
    assert.equal(config.body.data.account.is_open_for_signup, false);
  });
});

describeEachDatabase('signup, verification optional by link', { ACCOUNT_EMAIL_VERIFICATION: 'optional' }, ({ server }) => {
  for (const kind of ['app', 'browser'] as const) {
    it(`logs in at once and mails a link that verifies (${kind})`, async () => {
      const client = await readyClient(server(), kind);
      const email = uniqueEmail();
      const response = await client.post('/auth/signup', { email, password: PASSWORD });
      assert.equal(response.status, 200);
      assert.equal(response.body.meta.is_authenticated, true);

      const mail = await server().mail.waitForMail({ to: email });
      const key = keyFromMail(mail);
      assert.ok(mail.html.includes(encodeURIComponent(key)) || mail.html.includes(key), 'the HTML part carries the link too');

      const info = await client.get('/auth/email/verify', { 'X-Email-Verification-Key': key });
      assert.equal(info.status, 200);
      assert.equal(info.body.data.email, email);
      assert.equal(info.body.data.user.email, email);
      assert.equal(info.body.meta.is_authenticating, false);

      const verified = await client.post('/auth/email/verify', { key });
      assert.equal(verified.status, 200);
      assert.equal(verified.body.meta.is_authenticated, true);
      assertError(await client.post('/auth/email/verify', { key }), 400, 'invalid_or_expired_key', 'key');
    });
  }

  it('verifies a link opened without any session: 401, and the address is verified', async () => {
    const email = uniqueEmail();
    await signedUp(server().client('app'), email);
    const key = keyFromMail(await server().mail.waitForMail({ to: email }));
    const stranger = await readyClient(server(), 'browser');
    const verified = await stranger.post('/auth/email/verify', { key });
    assert.equal(verified.status, 401);
    assert.equal(verified.body.meta.is_authenticated, false);
    const row = await server().app.deps.db.selectFrom('email_addresses').select('verified').where('email_lower', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    assert.equal(row.verified, 1);
  });
});

describeEachDatabase(
  'signup with enumeration prevention',
  { ACCOUNT_EMAIL_VERIFICATION: 'mandatory' },
  ({ server }) => {
    for (const kind of ['app', 'browser'] as const) {
      it(`answers a taken address like a new one and mails its owner (${kind})`, async () => {
        const email = uniqueEmail('owner');
        const first = await readyClient(server(), kind);
        const fresh = await first.post('/auth/signup', { email, password: PASSWORD });
        assert.equal(fresh.status, 401);
        await server().mail.waitForMail({ to: email });

        const second = await readyClient(server(), kind);
        const taken = await second.post('/auth/signup', { email, password: 'another long phrase' });
        assert.equal(taken.status, 401);
        assert.deepEqual(flowIds(taken.body), flowIds(fresh.body));
        assert.deepEqual(flowIds(taken.body), ['login', 'signup', 'verify_email!']);
        assert.deepEqual(Object.keys(taken.body).sort(), Object.keys(fresh.body).sort());
        assert.deepEqual(Object.keys(taken.body.meta).sort(), Object.keys(fresh.body.meta).sort());
        if (kind === 'app') assert.ok(taken.body.meta.session_token);

        const notice = await nthMail(server().mail, email, 2);
        assert.match(notice.subject, /already have an account/i);
        // The notice links to password reset, not to a verification key.
        assert.equal(notice.text.includes('/verify-email/'), false);
        const session = await second.get('/auth/session');
        assert.deepEqual(flowIds(session.body), ['login', 'signup', 'verify_email!']);
      });
    }

    it('a decoy verification can never be completed', async () => {
      const email = uniqueEmail('owner');
      await server().client('app').post('/auth/signup', { email, password: PASSWORD });
      const key = keyFromMail(await server().mail.waitForMail({ to: email }));
      const intruder = server().client('app');
      await intruder.post('/auth/signup', { email, password: 'another long phrase' });
      // Even the owner's real key does not log the intruder in.
      const attempt = await intruder.post('/auth/email/verify', { key });
      assert.notEqual(attempt.status, 200);
      assert.notEqual(attempt.body.meta?.is_authenticated, true);
    });

    it('a verification mail that cannot be sent: 503, and neither the account nor the pending flow is kept', async () => {
      const email = uniqueEmail('bounce');
      server().mail.refused.add(email);
      const browser = await readyClient(server(), 'browser');
      try {
        assertError(await browser.post('/auth/signup', { email, password: PASSWORD }), 503, 'mail_unavailable');
        assertError(await server().client('app').post('/auth/signup', { email, password: PASSWORD }), 503, 'mail_unavailable');
      } finally {
        server().mail.refused.delete(email);
      }
      assert.deepEqual(flowIds((await browser.get('/auth/session')).body), ['login', 'signup']);
      // No account was left behind: the address signs up afresh and its link verifies.
      const app = server().client('app');
      assert.equal((await app.post('/auth/signup', { email, password: PASSWORD })).status, 401);
      const key = keyFromMail(await server().mail.waitForMail({ to: email }));
      assert.equal((await app.post('/auth/email/verify', { key })).status, 200);
    });
  },
);

describeEachDatabase('signup without enumeration prevention', { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', ACCOUNT_PREVENT_ENUMERATION: 'false' }, ({ server }) => {
  it('answers 400 email_taken', async () => {
    const email = uniqueEmail();
    assert.equal((await server().client('app').post('/auth/signup', { email, password: PASSWORD })).status, 401);
    assertError(await server().client('app').post('/auth/signup', { email, password: PASSWORD }), 400, 'email_taken', 'email');
  });
});
