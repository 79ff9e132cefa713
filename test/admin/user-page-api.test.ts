import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { PASSWORD, nthMail, uniqueEmail } from '../support/accounts.js';
import { nextPeriod, pendingSecondFactor, totpAt } from '../mfa/support.js';
import { AdminClient, adminUrl, consoleAdmin, ConsoleBrowser, newKey } from './support.js';

// What the console's user page reads beyond the plain resources: the
// language a user last used, which of the administrator's own sessions is the
// console's, and a reset mail an administrator sends saying so.

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`admin API for the user page [${kind}]`, skip, () => {
    let server: TestServer;
    let base: string;
    let writer: AdminClient;
    let admin: { email: string; secret: string; id: number };
    let console_: ConsoleBrowser;
    before(async () => {
      server = await startTestServer(kind, { ADMIN_PORT: '0', ACCOUNT_EMAIL_VERIFICATION: 'optional' });
      base = await adminUrl(server);
      writer = new AdminClient(base, (await newKey(server, 'write')).secret);
      ({ console: console_, ...admin } = await consoleAdmin(server, base));
    });
    after(async () => {
      await server?.close();
    });

    it('shows the language a user last used, null before any request of theirs named one', async () => {
      const email = uniqueEmail('lang');
      const user = (await writer.post('/users', { email, password: PASSWORD, email_verified: true })).body.data;
      assert.equal(user.language, null);
      const login = await server.client('app').post('/auth/login', { email, password: PASSWORD }, { 'accept-language': 'fr-FR,fr;q=0.9' });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.equal((await writer.get(`/users/${user.id}`)).body.data.language, 'fr');
      // The list's rows stay as they were: the language is a detail of one user.
      assert.equal('language' in (await writer.get(`/users?id=${user.id}`)).body.data[0], false);
    });

    it("marks the console's own session as current for the console, and says nothing of it to an API key", async () => {
      // A second session of the administrator's, on the public listener.
      const other = await pendingSecondFactor(server, 'app', admin.email);
      nextPeriod(server);
      assert.equal((await other.post('/auth/2fa/authenticate', { code: totpAt(server, admin.secret) })).status, 200);
      const seen = await console_.request('GET', `/console/api/v1/users/${admin.id}/sessions`);
      assert.equal(seen.status, 200, JSON.stringify(seen.body));
      const marks = seen.body.data.map((s: { current?: boolean }) => s.current);
      assert.ok(marks.length >= 2, JSON.stringify(seen.body.data));
      assert.equal(marks.filter((c: unknown) => c === true).length, 1, JSON.stringify(seen.body.data));
      assert.ok(marks.every((c: unknown) => typeof c === 'boolean'));
      // The one marked is the console's: revoking the others leaves the console signed in.
      for (const s of seen.body.data.filter((s: { current: boolean }) => !s.current)) {
        assert.equal((await console_.request('DELETE', `/console/api/v1/users/${admin.id}/sessions/${s.id}`)).status, 200);
      }
      assert.equal((await console_.request('GET', '/console/api/v1/me')).status, 200);

      const byKey = await writer.get(`/users/${admin.id}/sessions`);
      assert.equal(byKey.status, 200);
      assert.ok(byKey.body.data.length >= 1);
      assert.ok(byKey.body.data.every((s: object) => !('current' in s)), JSON.stringify(byKey.body.data));
    });

    it('mails a reset link sent by an administrator in its own words, in the language the user last used', async () => {
      const email = uniqueEmail('byadmin');
      const user = (await writer.post('/users', { email, password: PASSWORD, email_verified: true })).body.data;
      assert.equal((await writer.post(`/users/${user.id}/password-reset`)).status, 200);
      const mail = await nthMail(server.mail, email, 1);
      assert.match(mail.text, /An administrator of .+ sent you this link to set a new password/);
      assert.doesNotMatch(mail.text, /hopefully you/);
      assert.match(mail.html, /An administrator of .+ sent you this link/);
      assert.match(mail.text, /password\/reset\/key\//);

      // The user asking themselves still reads that someone asked.
      assert.equal((await server.client('app').post('/auth/password/request', { email })).status, 200);
      assert.match((await nthMail(server.mail, email, 2)).text, /Someone, hopefully you, asked/);

      const login = await server.client('app').post('/auth/login', { email, password: PASSWORD }, { 'accept-language': 'de' });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.equal((await writer.post(`/users/${user.id}/password-reset`)).status, 200);
      assert.match((await nthMail(server.mail, email, 3)).text, /Ein Administrator von .+ hat Ihnen diesen Link geschickt/);
    });
  });
}
