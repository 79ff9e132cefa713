import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { PASSWORD, keyFromMail, nthMail, uniqueEmail } from '../support/accounts.js';
import { sample, scrape } from '../support/metrics.js';
import { openWebAuthnPage, startWebAuthnServer, type WebAuthnPage } from './webauthn-page.js';
import { eventsOf, UserTrail, type Origin } from '../audit/support.js';
import { listAuthenticators } from '../../src/store/mfa-authenticators.js';

// Security keys and passkeys in real Chromium with the DevTools virtual
// authenticator: registration, the second factor, reauthentication, passkey
// login and signup; the checks of challenge, origin, counter and user
// verification.

const ENV = { MFA_SUPPORTED_TYPES: 'recovery_codes,totp,webauthn', MFA_PASSKEY_LOGIN_ENABLED: 'true', MFA_PASSKEY_SIGNUP_ENABLED: 'true' };
const skipBrowser = browserSkipReason();

/** Signs up through the page (browser client), verifies the address, and confirms the password. */
async function browserAccount(server: TestServer, web: WebAuthnPage): Promise<string> {
  const email = uniqueEmail('key');
  assert.equal((await web.call('browser', 'POST', '/auth/signup', { email, password: PASSWORD })).status, 200);
  const key = keyFromMail(await nthMail(server.mail, email, 1));
  assert.equal((await web.call('browser', 'POST', '/auth/email/verify', { key })).status, 200);
  assert.equal((await web.call('browser', 'POST', '/auth/reauthenticate', { password: PASSWORD })).status, 200);
  return email;
}

/** Adds a key (or with `passwordless` a passkey) to the page's logged-in account. */
async function addKey(web: WebAuthnPage, passwordless: boolean, name?: string) {
  const options = await web.call('browser', 'GET', `/account/authenticators/webauthn${passwordless ? '?passwordless' : ''}`);
  assert.equal(options.status, 200, JSON.stringify(options.body));
  const credential = await web.create(options.body.data.creation_options);
  const added = await web.call('browser', 'POST', '/account/authenticators/webauthn', { credential, ...(name ? { name } : {}) });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  return { added: added.body, credential, options: options.body.data.creation_options };
}

/** `auth_logins_total` for one method and outcome. */
async function loginsCounted(server: TestServer, method: string, outcome: string): Promise<number> {
  return sample(await scrape(server.baseUrl), 'auth_logins_total', { method, outcome });
}

/** The page's logged-in user, and its trail from now on. */
async function trailOf(server: TestServer, web: WebAuthnPage): Promise<UserTrail> {
  const session = await web.call('browser', 'GET', '/auth/session');
  assert.equal(session.status, 200, JSON.stringify(session.body));
  const trail = new UserTrail(server, session.body.data.user.id);
  await trail.skip();
  return trail;
}

/** Where the page's requests come from, as the audit trail should record them. */
async function originOf(web: WebAuthnPage): Promise<Origin> {
  return { ip: '127.0.0.1', userAgent: await web.page.evaluate(() => navigator.userAgent) };
}

function methodsOf(body: any): unknown[] {
  return body.data.methods.map((m: any) => ({ method: m.method, ...(m.type ? { type: m.type } : {}), ...(m.passwordless ? { passwordless: true } : {}), ...(m.reauthenticated ? { reauthenticated: true } : {}) }));
}

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`WebAuthn in Chromium [${kind}]`, skipBrowser ?? skip, () => {
    let server: TestServer;
    let origin: string;
    let browser: Browser;
    before(async () => {
      ({ server, origin } = await startWebAuthnServer(kind, ENV));
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });
    /** Runs `test` on a fresh page (its own cookies and virtual authenticator), closed afterwards. */
    const withPage = async (test: (web: WebAuthnPage) => Promise<void>) => {
      const web = await openWebAuthnPage(browser, origin);
      try {
        await test(web);
      } finally {
        await web.close();
      }
    };

    it('adds, lists, renames and removes security keys and passkeys', () =>
      withPage(async (web) => {
        await browserAccount(server, web);
        const trail = await trailOf(server, web);
        const from = await originOf(web);
        const { added, options, credential: first } = await addKey(web, false);
        await trail.expect(server.clock.now(), { type: 'authenticator.added', from, detail: { authenticator: 'webauthn', authenticator_id: added.data.id } });
        assert.equal(options.publicKey.rp.id, 'localhost');
        assert.equal(options.publicKey.authenticatorSelection.residentKey, 'discouraged');
        assert.deepEqual(options.publicKey.extensions, { credProps: true });
        assert.equal(added.data.type, 'webauthn');
        assert.equal(added.data.name, 'Master key');
        // Chromium reports credProps without rk for a key that is not discoverable: the field is left out, as in the reference.
        assert.deepEqual(first.clientExtensionResults, { credProps: {} });
        assert.equal('is_passwordless' in added.data, false);
        assert.equal(added.data.last_used_at, null);
        assert.deepEqual(added.meta, { recovery_codes_generated: true });

        await web.newDevice();
        const passkey = await addKey(web, true);
        assert.equal(passkey.options.publicKey.authenticatorSelection.residentKey, 'required');
        assert.equal(passkey.options.publicKey.authenticatorSelection.userVerification, 'required');
        assert.equal(passkey.options.publicKey.excludeCredentials.length, 1, 'the first key is excluded');
        assert.equal(passkey.added.data.name, 'Backup key');
        assert.equal(passkey.added.data.is_passwordless, true);
        assert.deepEqual(passkey.added.meta, { recovery_codes_generated: false });
        await trail.expect(server.clock.now(), { type: 'authenticator.added', from, detail: { authenticator: 'webauthn', authenticator_id: passkey.added.data.id, method: 'passkey' } });

        const list = await web.call('browser', 'GET', '/account/authenticators');
        assert.deepEqual(list.body.data.map((a: any) => a.type), ['webauthn', 'recovery_codes', 'webauthn']);

        const renamed = await web.call('browser', 'PUT', '/account/authenticators/webauthn', { id: added.data.id, name: 'Blue key' });
        assert.equal(renamed.status, 200);
        assert.equal(renamed.body.data.name, 'Blue key');
        assert.equal((await web.call('browser', 'PUT', '/account/authenticators/webauthn', { id: added.data.id, name: 'x'.repeat(101) })).body.errors[0].code, 'max_length');
        const foreign = await web.call('browser', 'PUT', '/account/authenticators/webauthn', { id: 999999, name: 'Mine now' });
        assert.equal(foreign.status, 400);
        assert.equal(foreign.body.errors[0].code, 'invalid_choice');
        assert.equal(foreign.body.errors[0].param, 'id');

        const removed = await web.call('browser', 'DELETE', '/account/authenticators/webauthn', { authenticators: [added.data.id] });
        assert.deepEqual(removed.body, { status: 200 });
        assert.deepEqual((await web.call('browser', 'GET', '/account/authenticators')).body.data.map((a: any) => a.type), ['recovery_codes', 'webauthn']);
        const codesId = (await listAuthenticators(server.app.deps.db, trail.userId)).find((a) => a.type === 'recovery_codes')!.id;
        await web.call('browser', 'DELETE', '/account/authenticators/webauthn', { authenticators: [passkey.added.data.id] });
        assert.deepEqual((await web.call('browser', 'GET', '/account/authenticators')).body.data, [], 'the recovery codes went with the last key');
        await trail.expect(
          server.clock.now(),
          { type: 'authenticator.removed', from, detail: { authenticator: 'webauthn', authenticator_id: added.data.id } },
          { type: 'authenticator.removed', from, detail: { authenticator: 'webauthn', authenticator_id: passkey.added.data.id } },
          { type: 'authenticator.removed', from, detail: { authenticator: 'recovery_codes', authenticator_id: codesId } },
        );
      }));

    it('asks for a key as the second factor, on both clients, and reauthenticates with it', () =>
      withPage(async (web) => {
        const email = await browserAccount(server, web);
        const { added } = await addKey(web, false);
        assert.equal((await web.call('browser', 'DELETE', '/auth/session')).status, 401);
        const countedBefore = await loginsCounted(server, 'webauthn', 'success');

        const login = await web.call('browser', 'POST', '/auth/login', { email, password: PASSWORD });
        assert.equal(login.status, 401);
        assert.deepEqual(login.body.data.flows.at(-1), { id: 'mfa_authenticate', is_pending: true, types: ['recovery_codes', 'webauthn'] });
        const options = await web.call('browser', 'GET', '/auth/webauthn/authenticate');
        assert.deepEqual(options.body.data.request_options.publicKey.allowCredentials.map((c: any) => c.id), [(await credentialIds(web))[0]]);
        const done = await web.call('browser', 'POST', '/auth/webauthn/authenticate', { credential: await web.assertion(options.body.data.request_options) });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.deepEqual(methodsOf(done.body), [{ method: 'password' }, { method: 'mfa', type: 'webauthn' }]);
        assert.equal(done.body.data.methods[1].id, added.data.id);

        // The app client, from the same page, with its session token.
        const appLogin = await web.call('app', 'POST', '/auth/login', { email, password: PASSWORD });
        const token = appLogin.body.meta.session_token;
        assert.equal(appLogin.status, 401);
        const appOptions = await web.call('app', 'GET', '/auth/webauthn/authenticate', undefined, token);
        const appAssertion = await web.assertion(appOptions.body.data.request_options);
        const appDone = await web.call('app', 'POST', '/auth/webauthn/authenticate', { credential: appAssertion }, token);
        assert.equal(appDone.status, 200, JSON.stringify(appDone.body));
        assert.equal((await loginsCounted(server, 'webauthn', 'success')) - countedBefore, 2);
        // One assertion is good once: its challenge is gone (asked with the finished login's new token).
        const replay = await web.call('app', 'POST', '/auth/webauthn/reauthenticate', { credential: appAssertion }, appDone.body.meta.session_token);
        assert.equal(replay.status, 400);
        assert.deepEqual(replay.body.errors.map((e: any) => [e.code, e.param]), [['incorrect_code', 'credential']]);

        server.clock.advance(301_000);
        const stale = await web.call('browser', 'GET', '/account/authenticators/webauthn');
        assert.equal(stale.status, 401);
        assert.deepEqual(stale.body.data.flows, [{ id: 'reauthenticate' }, { id: 'mfa_reauthenticate', types: ['recovery_codes', 'webauthn'] }]);
        const reauthOptions = await web.call('browser', 'GET', '/auth/webauthn/reauthenticate');
        const reauth = await web.call('browser', 'POST', '/auth/webauthn/reauthenticate', { credential: await web.assertion(reauthOptions.body.data.request_options) });
        assert.equal(reauth.status, 200);
        assert.deepEqual(methodsOf(reauth.body).at(-1), { method: 'mfa', type: 'webauthn', reauthenticated: true });
        assert.equal((await web.call('browser', 'GET', '/account/authenticators/webauthn')).status, 200);
      }));

    it('logs in with a passkey alone, no username and no second factor', () =>
      withPage(async (web) => {
        const email = await browserAccount(server, web);
        await addKey(web, true);
        const trail = await trailOf(server, web);
        const from = await originOf(web);
        await web.call('browser', 'DELETE', '/auth/session');
        const config = await web.call('app', 'GET', '/config');
        assert.deepEqual(config.body.data.mfa, { supported_types: ['recovery_codes', 'totp', 'webauthn'], passkey_login_enabled: true });
        const anonymous = await web.call('app', 'GET', '/auth/session');
        assert.ok(anonymous.body.data.flows.some((f: any) => f.id === 'mfa_login_webauthn' && !f.is_pending));
        const countedBefore = await loginsCounted(server, 'passkey', 'success');

        for (const client of ['app', 'browser'] as const) {
          const options = await web.call(client, 'GET', '/auth/webauthn/login');
          assert.equal(options.status, 200);
          assert.deepEqual(options.body.data.request_options.publicKey.allowCredentials, []);
          const token = client === 'app' ? options.body.meta.session_token : undefined;
          if (client === 'app') assert.ok(token, 'the app gets the session holding the challenge');
          const credential = await web.assertion(options.body.data.request_options);
          const done = await web.call(client, 'POST', '/auth/webauthn/login', { credential }, token);
          assert.equal(done.status, 200, JSON.stringify(done.body));
          assert.equal(done.body.data.user.email, email);
          assert.deepEqual(methodsOf(done.body), [{ method: 'mfa', type: 'webauthn', passwordless: true }]);
          if (client === 'browser') await web.call('browser', 'DELETE', '/auth/session');
        }
        assert.equal((await loginsCounted(server, 'passkey', 'success')) - countedBefore, 2);
        await trail.expect(
          server.clock.now(),
          { type: 'logout', from, detail: {} },
          { type: 'login.succeeded', from, detail: { method: 'passkey' } },
          { type: 'login.succeeded', from, detail: { method: 'passkey' } },
          { type: 'logout', from, detail: {} },
        );
      }));

    it('refuses a passkey login without user verification', () =>
      withPage(async (web) => {
        await browserAccount(server, web);
        await addKey(web, true);
        await web.call('browser', 'DELETE', '/auth/session');
        await web.cdp.send('WebAuthn.setUserVerified', { authenticatorId: web.authenticatorId, isUserVerified: false });
        const options = await web.call('browser', 'GET', '/auth/webauthn/login');
        // A client that lowers the requirement gets an assertion without the UV flag; the server still requires it.
        const credential = await web.assertion(options.body.data.request_options, { userVerification: 'discouraged' });
        const refused = await web.call('browser', 'POST', '/auth/webauthn/login', { credential });
        assert.equal(refused.status, 400);
        assert.deepEqual(refused.body.errors.map((e: any) => [e.code, e.param]), [['incorrect_code', 'credential']]);
        // A signature that did not verify names no account: the credential id is only what was sent.
        const failed = (await eventsOf(server, 'login.failed')).at(-1)!;
        const from = await originOf(web);
        assert.deepEqual(
          { user: failed.userId, ip: failed.ip, userAgent: failed.userAgent, outcome: failed.outcome, detail: failed.detail },
          { user: null, ip: from.ip, userAgent: from.userAgent, outcome: 'failure', detail: { method: 'passkey', reason: 'invalid_credential' } },
        );
        assert.ok(Math.abs(failed.occurredAt - server.clock.now()) < 60_000);
      }));

    it('refuses a key whose signature counter went backwards (a cloned key)', () =>
      withPage(async (web) => {
        const email = await browserAccount(server, web);
        await addKey(web, false);
        const use = async () => {
          await web.call('browser', 'DELETE', '/auth/session');
          await web.call('browser', 'POST', '/auth/login', { email, password: PASSWORD });
          const options = await web.call('browser', 'GET', '/auth/webauthn/authenticate');
          return web.call('browser', 'POST', '/auth/webauthn/authenticate', { credential: await web.assertion(options.body.data.request_options) });
        };
        assert.equal((await use()).status, 200);
        assert.equal((await use()).status, 200);
        // The same private key with its counter reset, as a copy of the key would be.
        const { credentials } = await web.cdp.send('WebAuthn.getCredentials', { authenticatorId: web.authenticatorId });
        const [original] = credentials;
        await web.cdp.send('WebAuthn.removeCredential', { authenticatorId: web.authenticatorId, credentialId: original!.credentialId });
        await web.cdp.send('WebAuthn.addCredential', { authenticatorId: web.authenticatorId, credential: { ...original!, signCount: 0 } });
        const cloned = await use();
        assert.equal(cloned.status, 400, JSON.stringify(cloned.body));
        assert.equal(cloned.body.errors[0].code, 'incorrect_code');
      }));

    it('refuses a registration made for another origin or challenge', () =>
      withPage(async (web) => {
        await browserAccount(server, web);
        for (const tamper of [{ origin: 'http://evil.example' }, { challenge: 'AAAA' }]) {
          const options = await web.call('browser', 'GET', '/account/authenticators/webauthn');
          const credential = await web.create(options.body.data.creation_options);
          const clientData = JSON.parse(Buffer.from(credential.response.clientDataJSON, 'base64url').toString());
          credential.response.clientDataJSON = Buffer.from(JSON.stringify({ ...clientData, ...tamper })).toString('base64url');
          const refused = await web.call('browser', 'POST', '/account/authenticators/webauthn', { credential });
          assert.equal(refused.status, 400, JSON.stringify(tamper));
          assert.deepEqual(refused.body.errors.map((e: any) => [e.code, e.param]), [['incorrect_code', undefined]]);
        }
        assert.deepEqual((await web.call('browser', 'GET', '/account/authenticators')).body.data, []);
      }));

    it('signs up with a passkey: no password, logged in once the passkey is registered', () =>
      withPage(async (web) => {
        const email = uniqueEmail('passkey');
        const signup = await web.call('browser', 'POST', '/auth/webauthn/signup', { email, password: 'ignored entirely' });
        assert.equal(signup.status, 401, JSON.stringify(signup.body));
        assert.deepEqual(signup.body.data.flows.at(-1), { id: 'mfa_signup_webauthn', is_pending: true });
        const options = await web.call('browser', 'GET', '/auth/webauthn/signup');
        assert.equal(options.status, 200);
        assert.equal(options.body.data.creation_options.publicKey.authenticatorSelection.residentKey, 'required');
        const credential = await web.create(options.body.data.creation_options);
        const done = await web.call('browser', 'PUT', '/auth/webauthn/signup', { credential, name: 'My phone' });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.data.user.email, email);
        assert.equal(done.body.data.user.has_usable_password, false);
        const list = (await web.call('browser', 'GET', '/account/authenticators')).body.data;
        assert.deepEqual(list.map((a: any) => [a.type, a.name, a.is_passwordless]), [['webauthn', 'My phone', true]]);
        const from = await originOf(web);
        await new UserTrail(server, done.body.data.user.id).expect(
          server.clock.now(),
          { type: 'signup', from, detail: { method: 'passkey', email } },
          { type: 'authenticator.added', from, detail: { authenticator: 'webauthn', authenticator_id: list[0].id, method: 'passkey' } },
          { type: 'login.succeeded', from, detail: { method: 'signup' } },
        );
        assert.equal((await web.call('browser', 'GET', '/auth/webauthn/signup')).status, 409, 'nothing pending any more');
        // Signing up proved nothing, and there is no password: the passkey is the one way to reauthenticate.
        const stale = await web.call('browser', 'PUT', '/account/authenticators/webauthn', { id: list[0].id, name: 'Renamed' });
        assert.equal(stale.status, 401);
        assert.deepEqual(stale.body.data.flows, [{ id: 'mfa_reauthenticate', types: ['webauthn'] }]);

        await web.call('browser', 'DELETE', '/auth/session');
        const loginOptions = await web.call('browser', 'GET', '/auth/webauthn/login');
        const login = await web.call('browser', 'POST', '/auth/webauthn/login', { credential: await web.assertion(loginOptions.body.data.request_options) });
        assert.equal(login.status, 200);
        assert.equal(login.body.data.user.email, email);
      }));
  });
}

/** The base64url ids of the virtual authenticator's credentials. */
async function credentialIds(web: WebAuthnPage): Promise<string[]> {
  const { credentials } = await web.cdp.send('WebAuthn.getCredentials', { authenticatorId: web.authenticatorId });
  return credentials.map((c) => Buffer.from(c.credentialId, 'base64').toString('base64url'));
}
