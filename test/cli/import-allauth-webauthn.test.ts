import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { openWebAuthnPage, startWebAuthnServer, type WebAuthnPage } from '../mfa/webauthn-page.js';
import { allauthCopy, cliJson, sqlTime, type AllauthCopy } from './support.js';

// A passkey registered under django-allauth, imported, then used here as
// alice's second factor in real Chromium. The fixture has no WebAuthn rows
// (its README: no fido2 library), so the test makes one the way allauth
// does: the browser's registration response, kept whole in
// mfa_authenticator.data as {"name", "credential"}, by a virtual
// authenticator that still holds the key when the import is done.

const ENV = { MFA_SUPPORTED_TYPES: 'recovery_codes,totp,webauthn', MFA_PASSKEY_LOGIN_ENABLED: 'true' };
const skipBrowser = browserSkipReason();

/** What allauth asks the browser for when a user adds a passkey (user id: the Django pk, as text). */
function allauthCreationOptions(sourceUserId: number) {
  return {
    publicKey: {
      challenge: randomBytes(32).toString('base64url'),
      rp: { id: 'localhost', name: 'the old site' },
      user: { id: Buffer.from(String(sourceUserId)).toString('base64url'), name: 'alice@example.com', displayName: 'alice' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      extensions: { credProps: true },
    },
  };
}

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`import from django-allauth: a passkey [${kind}]`, skipBrowser ?? skip, () => {
    let server: TestServer;
    let origin: string;
    let browser: Browser;
    let web: WebAuthnPage;
    let source: AllauthCopy;
    before(async () => {
      ({ server, origin } = await startWebAuthnServer(kind, ENV));
      browser = await launchBrowser();
      web = await openWebAuthnPage(browser, origin);
      source = await allauthCopy(kind);
    });
    after(async () => {
      await web?.close();
      await browser?.close();
      await server?.close();
      await source?.drop();
    });

    it('keeps its credential, name and passkey flag, and passes as the second factor here', async () => {
      const credential = await web.create(allauthCreationOptions(1));
      const data = JSON.stringify({ name: 'Phone of Alice', credential }).replaceAll("'", "''");
      await source.exec(
        `INSERT INTO mfa_authenticator (id, type, data, user_id, created_at, last_used_at) VALUES (30, 'webauthn', '${data}', 1, ${sqlTime(kind, Date.UTC(2026, 10, 23, 20, 30))}, NULL)`,
      );
      // A user here first, so alice's id here differs from the id her passkey was made with.
      assert.equal((await web.call('app', 'POST', '/auth/signup', { email: 'first@example.com', password: 'a long passphrase' })).status, 200);
      const target = server.app.deps.config.databaseUrl;
      const summary = await cliJson(target, ['import', 'allauth', source.url]);
      assert.deepEqual(summary.rows.mfa_authenticators, { imported: 3, already_imported: 0, skipped: {} });

      const listed = await cliJson(target, ['authenticators', 'list', 'alice@example.com']);
      assert.deepEqual(
        listed.authenticators.map((a: any) => [a.type, a.name, a.passkey, a.created_at, a.last_used_at]),
        [['webauthn', 'Phone of Alice', true, '2026-11-23T20:30:00.000Z', null]],
      );
      const row = await server.app.deps.db.selectFrom('mfa_authenticators').select('credential_id').where('type', '=', 'webauthn').executeTakeFirstOrThrow();
      assert.equal(row.credential_id, credential.rawId);

      const login = await web.call('browser', 'POST', '/auth/login', { email: 'alice@example.com', password: 'Alice-pass-1!' });
      assert.equal(login.status, 401, JSON.stringify(login.body));
      assert.deepEqual(login.body.data.flows.at(-1), { id: 'mfa_authenticate', is_pending: true, types: ['webauthn'] });
      const options = await web.call('browser', 'GET', '/auth/webauthn/authenticate');
      assert.deepEqual(options.body.data.request_options.publicKey.allowCredentials.map((c: any) => c.id), [credential.rawId]);
      const done = await web.call('browser', 'POST', '/auth/webauthn/authenticate', { credential: await web.assertion(options.body.data.request_options) });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.data.user.username, 'alice');
      assert.notEqual((await cliJson(target, ['authenticators', 'list', 'alice'])).authenticators[0].last_used_at, null);
      assert.notEqual(done.body.data.user.id, 1, 'alice has another id here than in allauth');

      // The passkey alone: found by its credential id, not by the user id allauth wrote into it.
      await web.call('browser', 'DELETE', '/auth/session');
      const passkeyOptions = await web.call('browser', 'GET', '/auth/webauthn/login');
      const passkey = await web.call('browser', 'POST', '/auth/webauthn/login', { credential: await web.assertion(passkeyOptions.body.data.request_options) });
      assert.equal(passkey.status, 200, JSON.stringify(passkey.body));
      assert.equal(passkey.body.data.user.username, 'alice');
    });
  });
}
