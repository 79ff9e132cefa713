import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { nextPeriod, pendingSecondFactor, totpAccount, totpAt } from '../mfa/support.js';
import { adminUrl, assertAdminError, consoleAdmin, ConsoleBrowser } from './support.js';
import { setAdmin } from '../../src/flows/admin/users.js';
import { cliSource } from '../../src/audit/recorder.js';
import { findUserByEmail } from '../../src/store/users.js';

// The admin console's sessions over HTTP (no page): they never mix with the
// public listener's, although both are rows of one table, and the console's
// only active administrator cannot lock themselves out.

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`admin console sessions [${kind}]`, skip, () => {
    let server: TestServer;
    let base: string;
    let admin: { email: string; secret: string; id: number };
    let console_: ConsoleBrowser;
    before(async () => {
      server = await startTestServer(kind, { ADMIN_PORT: '0', ACCOUNT_EMAIL_VERIFICATION: 'optional' });
      base = await adminUrl(server);
      ({ console: console_, ...admin } = await consoleAdmin(server, base));
    });
    after(async () => {
      await server?.close();
    });

    /** The administrator's own public session, with its second factor: all the console asks of a session. */
    async function publicLogin(clientKind: 'browser' | 'app'): Promise<string> {
      const client = await pendingSecondFactor(server, clientKind, admin.email);
      nextPeriod(server);
      const done = await client.post('/auth/2fa/authenticate', { code: totpAt(server, admin.secret) });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      return clientKind === 'browser' ? client.cookies.get('sessionid')! : client.sessionToken!;
    }

    it('opens the console with its own cookie', async () => {
      const me = await console_.request('GET', '/console/api/v1/me');
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.equal(me.body.data.id, admin.id);
    });

    it("refuses a public session key as the console's cookie", async () => {
      for (const clientKind of ['browser', 'app'] as const) {
        const key = await publicLogin(clientKind);
        const pasted = new ConsoleBrowser(base);
        pasted.cookies.set('admin_sessionid', key);
        assertAdminError(await pasted.request('GET', '/console/api/v1/me'), 401, 'not_authenticated');
        assertAdminError(await pasted.request('GET', '/console/api/v1/users?limit=1'), 401, 'not_authenticated');
      }
    });

    it("refuses the console's cookie as a public session", async () => {
      const cookie = console_.cookies.get('admin_sessionid')!;
      const browser = server.client('browser');
      browser.cookies.set('sessionid', cookie);
      const session = await browser.get('/auth/session');
      assert.equal(session.status, 401, JSON.stringify(session.body));
      assert.equal(session.body.meta.is_authenticated, false);
      const app = server.client('app');
      app.sessionToken = cookie;
      assert.notEqual((await app.get('/auth/session')).status, 200);
      // The console still takes it.
      assert.equal((await console_.request('GET', '/console/api/v1/me')).status, 200);
    });

    it('keeps the only active administrator from disabling or deleting their own account', async () => {
      assertAdminError(await console_.request('PATCH', `/console/api/v1/users/${admin.id}`, { is_active: false }), 409, 'last_admin', 'is_active');
      assertAdminError(await console_.request('DELETE', `/console/api/v1/users/${admin.id}`), 409, 'last_admin', 'id');
      const me = await console_.request('GET', `/console/api/v1/users/${admin.id}`);
      assert.equal(me.body.data.is_active, true);

      // With another active administrator, it is theirs to do.
      const other = await totpAccount(server, 'app');
      await setAdmin(server.app.deps, cliSource(server.clock.now()), (await findUserByEmail(server.app.deps.db, other.email))!, true);
      const disabled = await console_.request('PATCH', `/console/api/v1/users/${admin.id}`, { is_active: false });
      assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
      assert.equal(disabled.body.data.is_active, false);
    });
  });
}
