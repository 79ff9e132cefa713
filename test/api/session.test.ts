import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, flowIds, readyClient, signedUp, uniqueEmail } from '../support/accounts.js';

const COOKIE_AGE = 3600;

describeEachDatabase('current session', { ACCOUNT_EMAIL_VERIFICATION: 'none', SESSION_COOKIE_AGE: String(COOKIE_AGE) }, ({ server }) => {
  for (const kind of ['app', 'browser'] as const) {
    it(`GET /auth/session: 401 with flows when anonymous, 200 with user and methods when logged in (${kind})`, async () => {
      const client = await readyClient(server(), kind);
      const anonymous = await client.get('/auth/session');
      assert.equal(anonymous.status, 401);
      assert.deepEqual(anonymous.body, { status: 401, data: { flows: [{ id: 'login' }, { id: 'signup' }] }, meta: { is_authenticated: false } });

      const { email } = await signedUp(client);
      const me = await client.get('/auth/session');
      assert.equal(me.status, 200);
      assert.equal(me.body.status, 200);
      assert.equal(me.body.meta.is_authenticated, true);
      assert.equal(me.body.data.user.email, email);
      assert.deepEqual(me.body.data.methods, [], 'signing up proves no factor, as in the reference');
      assert.equal(me.body.meta.session_token, undefined, 'a token is only sent when it changes');
    });

    it(`DELETE /auth/session logs out: 401 with flows, and the old credential stops working (${kind})`, async () => {
      const client = await readyClient(server(), kind);
      await signedUp(client);
      const token = client.sessionToken;
      const cookie = client.cookies.get('sessionid');
      const out = await client.delete('/auth/session');
      assert.equal(out.status, 401);
      assert.equal(out.body.meta.is_authenticated, false);
      assert.equal(out.body.meta.session_token, undefined);
      assert.deepEqual(flowIds(out.body), ['login', 'signup']);

      if (kind === 'app') {
        const stale = await client.get('/auth/session');
        assert.equal(stale.status, 410);
        assert.equal(stale.body.meta.is_authenticated, null);
        assert.deepEqual(flowIds(stale.body), ['login', 'signup']);
        assert.ok(token);
      } else {
        assert.equal(client.cookies.get('sessionid'), undefined, 'the cookie is cleared');
        const replay = await server().client('browser').get('/auth/session', { cookie: `sessionid=${cookie}` });
        assert.equal(replay.status, 401);
      }
    });
  }

  it('an unknown app token answers 410 with is_authenticated null', async () => {
    const response = await server().client('app').get('/auth/session', { 'X-Session-Token': 'no-such-token' });
    assert.equal(response.status, 410);
    assert.equal(response.body.status, 410);
    assert.equal(response.body.meta.is_authenticated, null);
    assert.deepEqual(flowIds(response.body), ['login', 'signup']);
  });

  it('an unknown app token does not block a new login', async () => {
    const { email } = await signedUp(server().client('app'));
    const client = server().client('app');
    client.sessionToken = 'no-such-token';
    const login = await client.post('/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 200);
    assert.notEqual(client.sessionToken, 'no-such-token');
    assert.equal((await client.get('/auth/session')).status, 200);
  });

  it('the browser session cookie is HttpOnly', async () => {
    const client = await readyClient(server(), 'browser');
    const response = await fetch(`${client.prefix}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader, 'x-csrftoken': client.cookies.get('csrftoken')! },
      body: JSON.stringify({ email: `cookie-${Date.now()}@example.com`, password: PASSWORD }),
    });
    assert.equal(response.status, 200);
    const line = response.headers.getSetCookie().find((c) => c.startsWith('sessionid='));
    assert.ok(line, 'a session cookie is set');
    assert.match(line, /;\s*HttpOnly/i);
    assert.match(line, /;\s*SameSite=Lax/i);
    assert.match(line, /;\s*Path=\//i);
  });

  it('a browser session in use gets its cookie lifetime renewed with the sliding expiry', async () => {
    const browser = await readyClient(server(), 'browser');
    await signedUp(browser);
    const cookie = `sessionid=${browser.cookies.get('sessionid')}`;
    const quiet = await fetch(`${browser.prefix}/auth/session`, { headers: { cookie } });
    assert.equal(quiet.headers.getSetCookie().find((c) => c.startsWith('sessionid=')), undefined, 'no renewal within the touch interval');
    server().clock.advance(120_000);
    const renewed = await fetch(`${browser.prefix}/auth/session`, { headers: { cookie } });
    assert.equal(renewed.status, 200);
    const line = renewed.headers.getSetCookie().find((c) => c.startsWith('sessionid='));
    assert.ok(line, 'the session cookie is set again');
    assert.match(line, new RegExp(`Max-Age=${COOKIE_AGE}`));
    assert.ok(line.startsWith(cookie + ';'), 'same key, new lifetime');
  });

  it('an expired session: 410 for the app token, 401 for the browser cookie', async () => {
    const app = server().client('app');
    await signedUp(app);
    const browser = await readyClient(server(), 'browser');
    await signedUp(browser);
    server().clock.advance((COOKIE_AGE + 1) * 1000);
    const gone = await app.get('/auth/session');
    assert.equal(gone.status, 410);
    assert.equal(gone.body.meta.is_authenticated, null);
    const expired = await browser.get('/auth/session');
    assert.equal(expired.status, 401);
    assert.equal(expired.body.meta.is_authenticated, false);
  });

  it('a session in use stays alive past its first expiry', async () => {
    const app = server().client('app');
    await signedUp(app);
    for (let i = 0; i < 3; i++) {
      server().clock.advance((COOKIE_AGE / 2) * 1000);
      assert.equal((await app.get('/auth/session')).status, 200);
    }
  });
});

// Issue 13 item 14: sessions only slid, so a session kept busy (or a stolen
// token kept busy) never ended. SESSION_ABSOLUTE_LIFETIME bounds it from login.
const ABSOLUTE = 2 * COOKIE_AGE;

describeEachDatabase(
  'regression: an absolute session lifetime (issue 13 item 14)',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', SESSION_COOKIE_AGE: String(COOKIE_AGE), SESSION_ABSOLUTE_LIFETIME: String(ABSOLUTE), HEADLESS_TOKEN_STRATEGY: 'jwt', HEADLESS_JWT_ALGORITHM: 'HS256' },
  ({ server }) => {
    it('a session in use ends SESSION_ABSOLUTE_LIFETIME after its login: 410 for the app, 401 for the browser, no refresh', async () => {
      const app = server().client('app');
      const credentials = { email: uniqueEmail(), password: PASSWORD };
      const signup = await app.post('/auth/signup', credentials);
      assert.equal(signup.status, 200);
      // The session behind the token is the one kept in use below.
      const refresh = signup.body.meta.refresh_token as string;
      assert.equal(typeof refresh, 'string');
      const browser = await readyClient(server(), 'browser');
      assert.equal((await browser.post('/auth/login', credentials)).status, 200);

      // Used every half hour: the sliding expiry alone would keep it forever.
      for (let minutes = 30; minutes < ABSOLUTE / 60; minutes += 30) {
        server().clock.advance(30 * 60_000);
        assert.equal((await app.get('/auth/session')).status, 200, `app at ${minutes} min`);
        const response = await fetch(`${browser.prefix}/auth/session`, { headers: { cookie: `sessionid=${browser.cookies.get('sessionid')}` } });
        assert.equal(response.status, 200, `browser at ${minutes} min`);
        // The cookie lives as long as the session: what is left of the absolute lifetime once that is the nearer end.
        const maxAge = Number(/Max-Age=(\d+)/.exec(response.headers.getSetCookie().find((c) => c.startsWith('sessionid=')) ?? '')?.[1]);
        const left = ABSOLUTE - minutes * 60;
        assert.ok(Math.abs(maxAge - Math.min(COOKIE_AGE, left)) <= 5, `Max-Age ${maxAge} at ${minutes} min`);
      }
      server().clock.advance(30 * 60_000 + 1000);
      const gone = await app.get('/auth/session');
      assert.equal(gone.status, 410);
      assert.equal((await browser.get('/auth/session')).status, 401);
      assert.equal((await server().client('app').post('/tokens/refresh', { refresh_token: refresh })).status, 400);
    });
  },
);

describeEachDatabase(
  'SESSION_ABSOLUTE_LIFETIME=0',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', SESSION_COOKIE_AGE: String(COOKIE_AGE), SESSION_ABSOLUTE_LIFETIME: '0' },
  ({ server }) => {
    it('leaves only the sliding expiry', async () => {
      const app = server().client('app');
      await signedUp(app);
      for (let i = 0; i < 6; i++) {
        server().clock.advance((COOKIE_AGE / 2) * 1000);
        assert.equal((await app.get('/auth/session')).status, 200);
      }
    });
  },
);
