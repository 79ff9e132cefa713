import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, readyClient } from '../support/accounts.js';
import { CLIENTS, loggedInUser } from './helpers.js';

describeEachDatabase('session list', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`lists the user's sessions and ends another one (${kind})`, async () => {
      const { client, email } = await loggedInUser(server(), kind);
      const other = await readyClient(server(), kind === 'app' ? 'browser' : 'app');
      const login = await other.post('/auth/login', { email, password: PASSWORD }, { 'user-agent': 'Other Device/2.0' });
      assert.equal(login.status, 200);
      const before = Date.now() / 1000;

      const listed = await client.get('/auth/sessions');
      assert.equal(listed.status, 200);
      assert.equal(listed.body.data.length, 2);
      const [mine, theirs] = listed.body.data;
      assert.equal(mine.is_current, true);
      assert.equal(theirs.is_current, false);
      assert.equal(theirs.user_agent, 'Other Device/2.0');
      for (const s of listed.body.data) {
        assert.equal(typeof s.id, 'number');
        assert.equal(s.ip, '127.0.0.1');
        assert.ok(Math.abs(s.created_at - before) < 60, `created_at ${s.created_at} is Unix seconds`);
      }
      // USERSESSIONS_TRACK_ACTIVITY is off by default: no last_seen_at, as the reference.
      assert.deepEqual(Object.keys(mine).sort(), ['created_at', 'id', 'ip', 'is_current', 'user_agent']);

      const ended = await client.delete('/auth/sessions', { sessions: [theirs.id] });
      assert.equal(ended.status, 200);
      assert.deepEqual(ended.body.data.map((s: { id: number }) => s.id), [mine.id]);
      assert.equal((await other.get('/auth/session')).status, kind === 'app' ? 401 : 410);
      assert.equal((await client.get('/auth/session')).status, 200);
    });

    it(`logs out when the current session is ended (${kind})`, async () => {
      const { client } = await loggedInUser(server(), kind);
      const [current] = (await client.get('/auth/sessions')).body.data;
      const ended = await client.delete('/auth/sessions', { sessions: [current.id] });
      assert.equal(ended.status, 401);
      assert.equal(ended.body.meta.is_authenticated, false);
      assert.equal((await client.get('/auth/session')).status, kind === 'app' ? 410 : 401);
    });
  }

  it("refuses ids that are not the user's live sessions", async () => {
    const { client: stranger } = await loggedInUser(server(), 'app');
    const [theirs] = (await stranger.get('/auth/sessions')).body.data;
    const { client } = await loggedInUser(server(), 'app');
    assertError(await client.delete('/auth/sessions', { sessions: [theirs.id] }), 400, 'invalid_choice', 'sessions');
    assertError(await client.delete('/auth/sessions', { sessions: [] }), 400, 'required', 'sessions');
    assertError(await client.delete('/auth/sessions', {}), 400, 'required', 'sessions');
    assertError(await client.delete('/auth/sessions', { sessions: ['x'] }), 400, 'invalid', 'sessions');
    assert.equal((await stranger.get('/auth/session')).status, 200);
  });

  it('answers 401 when not logged in', async () => {
    const app = server().client('app');
    assert.equal((await app.get('/auth/sessions')).status, 401);
    assert.equal((await app.delete('/auth/sessions', { sessions: [1] })).status, 401);
  });

  it('a password change ends the other sessions', async () => {
    const { client, email } = await loggedInUser(server(), 'browser');
    const other = await readyClient(server(), 'app');
    await other.post('/auth/login', { email, password: PASSWORD });
    assert.equal((await client.get('/auth/sessions')).body.data.length, 2);
    const change = await client.post('/account/password/change', { current_password: PASSWORD, new_password: 'a different long phrase' });
    assert.equal(change.status, 200);
    const listed = await client.get('/auth/sessions');
    assert.equal(listed.body.data.length, 1);
    assert.equal(listed.body.data[0].is_current, true);
    assert.equal((await other.get('/auth/session')).status, 410);
  });
});

// Issue 13 item 17: the reference's SPA reads `usersessions` from /config to
// show its Sessions page; USERSESSIONS_TRACK_ACTIVITY is its source.
describeEachDatabase('regression: /config has usersessions.track_activity (issue 13 item 17)', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  it('is false by default, for both clients', async () => {
    for (const kind of CLIENTS) {
      const config = await server().client(kind).get('/config');
      assert.deepEqual(config.body.data.usersessions, { track_activity: false });
    }
  });

  it('without tracking, a session keeps the address and user agent it was created with', async () => {
    const { client } = await loggedInUser(server(), 'app');
    server().clock.advance(2 * 60_000);
    assert.equal((await client.get('/auth/session', { 'user-agent': 'Moved Device/1.0' })).status, 200);
    const [session] = (await client.get('/auth/sessions')).body.data;
    assert.notEqual(session.user_agent, 'Moved Device/1.0');
    assert.equal(session.last_seen_at, undefined);
  });
});

describeEachDatabase(
  'USERSESSIONS_TRACK_ACTIVITY=true',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', USERSESSIONS_TRACK_ACTIVITY: 'true', TRUSTED_PROXY_COUNT: '1' },
  ({ server }) => {
    it('/config says so, and the list shows where and when each session was last used', async () => {
      assert.deepEqual((await server().client('app').get('/config')).body.data.usersessions, { track_activity: true });
      const { client } = await loggedInUser(server(), 'app');
      const [created] = (await client.get('/auth/sessions', { 'x-forwarded-for': '198.51.100.7' })).body.data;
      assert.equal(typeof created.last_seen_at, 'number');

      // A new address or user agent is recorded at once; the time moves at most once a minute.
      const moved = await client.get('/auth/session', { 'x-forwarded-for': '203.0.113.9', 'user-agent': 'Moved Device/1.0' });
      assert.equal(moved.status, 200);
      const [after] = (await client.get('/auth/sessions', { 'x-forwarded-for': '203.0.113.9', 'user-agent': 'Moved Device/1.0' })).body.data;
      assert.equal(after.ip, '203.0.113.9');
      assert.equal(after.user_agent, 'Moved Device/1.0');
      assert.ok(after.last_seen_at >= created.last_seen_at);

      server().clock.advance(5 * 60_000);
      await client.get('/auth/session', { 'x-forwarded-for': '203.0.113.9', 'user-agent': 'Moved Device/1.0' });
      const [later] = (await client.get('/auth/sessions', { 'x-forwarded-for': '203.0.113.9', 'user-agent': 'Moved Device/1.0' })).body.data;
      assert.ok(later.last_seen_at - after.last_seen_at >= 299, `${later.last_seen_at} vs ${after.last_seen_at}`);
    });
  },
);
