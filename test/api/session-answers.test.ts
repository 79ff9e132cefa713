import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { PASSWORD, flowIds, readyClient, uniqueEmail } from '../support/accounts.js';
import { jwtEnv } from '../tokens/support.js';

// GET /auth/session answers a read of the state with JSON kept for the same
// session and user objects (http/render.ts): these pin that every change
// shows at once, whoever makes it, whether the caller comes with a cookie, a
// session token or a (statelessly validated) access token, and that the kept
// anonymous answers keep 401 and 410 apart.

/** A change made as another process would: straight to the table, through no flow. */
async function renameInDatabase(server: TestServer, userId: number, username: string): Promise<void> {
  await server.app.deps.db.updateTable('users').set({ username }).where('id', '=', userId).execute();
}

const CALLERS = [
  { name: 'browser cookie', kind: 'browser', env: {} },
  { name: 'session token', kind: 'app', env: {} },
  { name: 'access token', kind: 'app', env: jwtEnv() },
] as const;

for (const caller of CALLERS) {
  const env = { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_SIGNUP_FIELDS: 'email*,username,password1*', ...caller.env };
  describeEachDatabase(`current session answers (${caller.name})`, env, ({ server }) => {
    it('shows each change of the session and of its user at once', async () => {
      const client = await readyClient(server(), caller.kind);
      const signup = await client.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD });
      assert.equal(signup.status, 200, JSON.stringify(signup.body));
      const accessToken: string | undefined = signup.body.meta.access_token;
      assert.equal(accessToken !== undefined, caller.name === 'access token');
      // The access token alone, without the session token, when there is one.
      const whoami = () => (accessToken ? server().client('app').get('/auth/session', { authorization: `Bearer ${accessToken}` }) : client.get('/auth/session'));
      const userId: number = signup.body.data.user.id;

      const first = await whoami();
      assert.equal(first.status, 200);
      assert.deepEqual(first.body.data.methods, []);
      assert.deepEqual((await whoami()).body, first.body);

      // A change through the API: the session proves a password now.
      const reauthenticated = await client.post('/auth/reauthenticate', { password: PASSWORD });
      assert.equal(reauthenticated.status, 200);
      assert.deepEqual(
        (await whoami()).body.data.methods.map((m: { method: string }) => m.method),
        ['password'],
      );

      // A change by another writer: the user's name.
      await renameInDatabase(server(), userId, 'renamed_user');
      const renamed = await whoami();
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.data.user.username, 'renamed_user');
      assert.equal(renamed.body.data.user.display, 'renamed_user');
      assert.deepEqual((await whoami()).body, renamed.body);
    });

    it('keeps the anonymous answers of each client and of a stale token apart', async () => {
      for (let i = 0; i < 2; i++) {
        const gone = await server().client('app').get('/auth/session', { 'X-Session-Token': 'no-such-token' });
        assert.equal(gone.status, 410);
        assert.equal(gone.body.status, 410);
        assert.equal(gone.body.meta.is_authenticated, null);
        const visitor = await server().client('app').get('/auth/session');
        assert.equal(visitor.status, 401);
        assert.deepEqual(visitor.body, { status: 401, data: { flows: [{ id: 'login' }, { id: 'signup' }] }, meta: { is_authenticated: false } });
        const browser = await readyClient(server(), 'browser');
        const browserVisitor = await browser.get('/auth/session');
        assert.equal(browserVisitor.status, 401);
        assert.deepEqual(flowIds(browserVisitor.body), ['login', 'signup']);
        assert.equal(browserVisitor.body.meta.is_authenticated, false);
      }
    });
  });
}
