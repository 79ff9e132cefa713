import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, flowIds, mailsTo, readyClient, signedUp, uniqueEmail } from '../support/accounts.js';

const NEW_PASSWORD = 'an even longer secret phrase';

describeEachDatabase('reauthenticate', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  for (const kind of ['app', 'browser'] as const) {
    it(`the right password adds a reauthenticated method (${kind})`, async () => {
      const client = await readyClient(server(), kind);
      await signedUp(client);
      const response = await client.post('/auth/reauthenticate', { password: PASSWORD });
      assert.equal(response.status, 200);
      assert.equal(response.body.meta.is_authenticated, true);
      // Signing up recorded no method (as in the reference): the reauthentication is the first.
      const methods = response.body.data.methods;
      assert.equal(methods.length, 1);
      assert.equal(methods[0].method, 'password');
      assert.equal(methods[0].reauthenticated, true);
      const me = await client.get('/auth/session');
      assert.equal(me.body.data.methods.length, 1, 'the method is stored in the session');
    });
  }

  it('a wrong password answers 400 incorrect_password', async () => {
    const client = server().client('app');
    await signedUp(client);
    assertError(await client.post('/auth/reauthenticate', { password: 'not the password at all' }), 400, 'incorrect_password', 'password');
    assert.equal((await client.get('/auth/session')).body.data.methods.length, 0);
  });

  it('answers 401 with flows when not logged in', async () => {
    const response = await server().client('app').post('/auth/reauthenticate', { password: PASSWORD });
    assert.equal(response.status, 401);
    assert.deepEqual(flowIds(response.body), ['login', 'signup']);
  });

  it('asks for the password', async () => {
    const client = server().client('app');
    await signedUp(client);
    assertError(await client.post('/auth/reauthenticate', {}), 400, 'required', 'password');
  });
});

describeEachDatabase('password change', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  it('a wrong current password answers enter_current_password', async () => {
    const client = server().client('app');
    await signedUp(client);
    const response = await client.post('/account/password/change', { current_password: 'not the password at all', new_password: NEW_PASSWORD });
    assertError(response, 400, 'enter_current_password', 'current_password');
  });

  it('a missing current password is required', async () => {
    const client = server().client('app');
    await signedUp(client);
    assertError(await client.post('/account/password/change', { new_password: NEW_PASSWORD }), 400, 'required', 'current_password');
    assertError(await client.post('/account/password/change', { current_password: PASSWORD }), 400, 'required', 'new_password');
  });

  it('the new password must pass the policy', async () => {
    const client = server().client('app');
    // No digits in the address: a random hex run like the numeric password below would make it "too similar" instead.
    await signedUp(client, uniqueEmail('policy').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]!));
    const change = (new_password: string) => client.post('/account/password/change', { current_password: PASSWORD, new_password });
    assertError(await change('short'), 400, 'password_too_short', 'new_password');
    assertError(await change('iloveyou'), 400, 'password_too_common', 'new_password');
    assertError(await change('8405719263'), 400, 'password_entirely_numeric', 'new_password');
    assertError(await change(PASSWORD), 400, 'same_as_current', 'new_password');
  });

  it('answers 401 when not logged in', async () => {
    const response = await server().client('app').post('/account/password/change', { current_password: PASSWORD, new_password: NEW_PASSWORD });
    assert.equal(response.status, 401);
    assert.equal(response.body.meta.is_authenticated, false);
  });

  it('success ends other sessions, cycles this token, mails a notice, and the new password logs in', async () => {
    const me = server().client('app');
    const { email } = await signedUp(me);
    const other = server().client('app');
    assert.equal((await other.post('/auth/login', { email, password: PASSWORD })).status, 200);
    const browser = await readyClient(server(), 'browser');
    assert.equal((await browser.post('/auth/login', { email, password: PASSWORD })).status, 200);
    const oldToken = me.sessionToken!;

    const changed = await me.post('/account/password/change', { current_password: PASSWORD, new_password: NEW_PASSWORD });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.meta.is_authenticated, true);
    assert.ok(changed.body.meta.session_token);
    assert.notEqual(changed.body.meta.session_token, oldToken);
    assert.equal((await me.get('/auth/session')).status, 200, 'this session lives on under its new token');

    const stale = await server().client('app').get('/auth/session', { 'X-Session-Token': oldToken });
    assert.equal(stale.status, 410);
    assert.equal((await other.get('/auth/session')).status, 410, 'other app sessions end');
    assert.equal((await browser.get('/auth/session')).status, 401, 'browser sessions end');

    const notice = await server().mail.waitForMail({ to: email });
    assert.match(notice.subject, /password was changed/i);
    assertError(await server().client('app').post('/auth/login', { email, password: PASSWORD }), 400, 'email_password_mismatch', 'password');
    assert.equal((await server().client('app').post('/auth/login', { email, password: NEW_PASSWORD })).status, 200);
    assert.equal(mailsTo(server().mail, email).length, 1);
  });

  it('browser: success keeps this browser logged in under a new cookie', async () => {
    const browser = await readyClient(server(), 'browser');
    await signedUp(browser);
    const before = browser.cookies.get('sessionid');
    const changed = await browser.post('/account/password/change', { current_password: PASSWORD, new_password: NEW_PASSWORD });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.meta.session_token, undefined);
    assert.notEqual(browser.cookies.get('sessionid'), before);
    assert.equal((await browser.get('/auth/session')).status, 200);
    const replay = await server().client('browser').get('/auth/session', { cookie: `sessionid=${before}` });
    assert.equal(replay.status, 401);
  });
});
