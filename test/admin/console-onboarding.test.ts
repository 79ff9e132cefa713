import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { nextPeriod, totpAt } from '../mfa/support.js';
import { adminUrl, assertAdminError, ConsoleBrowser } from './support.js';
import { createAccount, setAdmin } from '../../src/flows/admin/users.js';
import { createSetupLink } from '../../src/flows/admin/setup-links.js';
import { cliSource } from '../../src/audit/recorder.js';
import { listAuditEvents } from '../../src/store/audit-events.js';
import { findUserById } from '../../src/store/users.js';

// The console's onboarding over HTTP: an administrator without a second
// factor signs in with the password and gets a session that may only enrol
// one (every admin route answers 403 mfa_enrollment_required); enrolling the
// account's first factor makes it a full console session. And the one-time
// setup link the CLI prints: single use, expiring, stored only as a hash.

const AUTH = '/_service/browser/v1';

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`admin console onboarding [${kind}]`, skip, () => {
    let server: TestServer;
    let base: string;
    before(async () => {
      server = await startTestServer(kind, { ADMIN_PORT: '0', ACCOUNT_EMAIL_VERIFICATION: 'optional' });
      base = await adminUrl(server);
    });
    after(async () => {
      await server?.close();
    });

    /** A new administrator with a verified address, with `password` or none, and no second factor. */
    async function newAdmin(password: string | null = PASSWORD): Promise<{ id: number; email: string }> {
      const email = uniqueEmail('first-admin');
      const made = await createAccount(server.app.deps, cliSource(server.clock.now()), { email, password, verified: true });
      assert.ok(made.ok);
      const user = (await findUserById(server.app.deps.db, made.userId))!;
      await setAdmin(server.app.deps, cliSource(server.clock.now()), user, true);
      return { id: user.id, email };
    }

    async function passwordOnly(email: string): Promise<ConsoleBrowser> {
      const browser = new ConsoleBrowser(base);
      assert.equal((await browser.request('GET', `${AUTH}/config`)).status, 200);
      const login = await browser.request('POST', `${AUTH}/auth/login`, { email, password: PASSWORD });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      return browser;
    }

    async function enrolTotp(browser: ConsoleBrowser): Promise<string> {
      const offer = await browser.request('GET', `${AUTH}/account/authenticators/totp`);
      assert.equal(offer.status, 404, JSON.stringify(offer.body));
      assert.match(offer.body.meta.qr_code_url, /^data:image\/svg\+xml;base64,/);
      const secret: string = offer.body.meta.secret;
      nextPeriod(server);
      const activated = await browser.request('POST', `${AUTH}/account/authenticators/totp`, { code: totpAt(server, secret) });
      assert.equal(activated.status, 200, JSON.stringify(activated.body));
      return secret;
    }

    it('lets a password-only session of an administrator without a second factor enrol one and nothing else', async () => {
      const admin = await newAdmin();
      const browser = await passwordOnly(admin.email);
      const me = await browser.request('GET', '/console/api/v1/me');
      assertAdminError(me, 403, 'mfa_enrollment_required');
      assert.deepEqual(me.body.data.flows, [{ id: 'mfa_enrollment', types: ['totp', 'webauthn'].filter((t) => server.app.deps.config.mfa.supportedTypes.includes(t as 'totp')) }]);
      for (const [method, path, body] of [
        ['GET', '/console/api/v1/users'],
        ['GET', `/console/api/v1/users/${admin.id}`],
        ['GET', '/console/api/v1/audit-events'],
        ['PATCH', `/console/api/v1/users/${admin.id}`, { first_name: 'Mallory' }],
        ['DELETE', `/console/api/v1/users/${admin.id}/sessions`],
      ] as const) {
        const refused = await browser.request(method, path, body);
        assert.equal(refused.status, 403, `${method} ${path}: ${JSON.stringify(refused.body)}`);
        assertAdminError(refused, 403, "mfa_enrollment_required");
      }
      assert.equal((await findUserById(server.app.deps.db, admin.id))!.firstName, '');

      await enrolTotp(browser);
      const after = await browser.request('GET', '/console/api/v1/me');
      assert.equal(after.status, 200, JSON.stringify(after.body));
      assert.deepEqual(after.body.data.methods.map((m: any) => [m.method, m.type]), [['password', undefined], ['mfa', 'totp']]);
      assert.equal((await browser.request('GET', '/console/api/v1/users?limit=1')).status, 200);
      // The recovery codes made with it, shown to the session that just proved both factors.
      const codes = await browser.request('GET', `${AUTH}/account/authenticators/recovery-codes`);
      assert.equal(codes.status, 200, JSON.stringify(codes.body));
      assert.equal(codes.body.data.unused_codes.length, server.app.deps.config.mfa.recoveryCodes.count);
    });

    it('asks a password-only session to sign in again once the account has a factor, and counts no second one', async () => {
      const admin = await newAdmin();
      const early = await passwordOnly(admin.email);
      const other = await passwordOnly(admin.email);
      await enrolTotp(other);
      // The factor came from elsewhere: this session proved none.
      assertAdminError(await early.request('GET', '/console/api/v1/me'), 403, 'mfa_required');
      assertAdminError(await early.request('GET', '/console/api/v1/users'), 403, 'mfa_required');
      // A fresh password login now waits for that factor.
      const again = new ConsoleBrowser(base);
      await again.request('GET', `${AUTH}/config`);
      const login = await again.request('POST', `${AUTH}/auth/login`, { email: admin.email, password: PASSWORD });
      assert.equal(login.status, 401);
      assert.equal(login.body.data.flows.find((f: any) => f.is_pending)?.id, 'mfa_authenticate');
    });

    it('gives a user without the role no console, enrolled or not', async () => {
      const email = uniqueEmail('not-admin');
      const made = await createAccount(server.app.deps, cliSource(server.clock.now()), { email, password: PASSWORD, verified: true });
      assert.ok(made.ok);
      const browser = await passwordOnly(email);
      assertAdminError(await browser.request('GET', '/console/api/v1/me'), 403, 'admin_required');
      await enrolTotp(browser);
      assertAdminError(await browser.request('GET', '/console/api/v1/users'), 403, 'admin_required');
    });

    it('signs a new administrator in with a setup link that sets their first password, once, and records it', async () => {
      const admin = await newAdmin(null);
      const made = await createSetupLink(server.app.deps, cliSource(server.clock.now()), (await findUserById(server.app.deps.db, admin.id))!, server.clock.now() + 86_400_000);
      assert.ok(made.ok);
      const [id, secret] = made.token.split('.');
      assert.equal(Number(id), made.link.id);
      const rows = await server.app.deps.db.selectFrom('admin_setup_links').selectAll().execute();
      assert.ok(!JSON.stringify(rows).includes(secret!), 'only the hash of the secret is stored');

      const browser = new ConsoleBrowser(base);
      await browser.request('GET', `${AUTH}/config`);
      const lookup = (token: string) => fetch(`${base}${AUTH}/auth/setup-link`, { headers: { 'x-setup-key': token } }).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers }));
      const info = await lookup(made.token);
      assert.equal(info.status, 200, JSON.stringify(info.body));
      assert.equal(info.body.data.user.email, admin.email);
      assert.equal(info.body.data.user.has_usable_password, false);
      for (const wrong of [`${id}.${secret!.slice(0, -2)}xx`, `${Number(id) + 1000}.${secret}`, 'nonsense', '']) {
        assertAdminError(await lookup(wrong), 400, 'invalid_or_expired_key', 'key');
      }

      assertAdminError(await browser.request('POST', `${AUTH}/auth/setup-link`, { key: made.token, password: 'short' }), 400, 'password_too_short', 'password');
      const redeemed = await browser.request('POST', `${AUTH}/auth/setup-link`, { key: made.token, password: PASSWORD });
      assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
      assert.equal(redeemed.body.data.user.has_usable_password, true);
      // Signed in with the password it set, with a second factor still to enrol.
      assertAdminError(await browser.request('GET', '/console/api/v1/me'), 403, 'mfa_enrollment_required');
      const stranger = new ConsoleBrowser(base);
      await stranger.request('GET', `${AUTH}/config`);
      assertAdminError(await stranger.request('POST', `${AUTH}/auth/setup-link`, { key: made.token, password: PASSWORD }), 400, 'invalid_or_expired_key', 'key');
      assertAdminError(await lookup(made.token), 400, 'invalid_or_expired_key', 'key');
      await passwordOnly(admin.email);

      const events = await listAuditEvents(server.app.deps.db, { userId: admin.id, types: ['admin.setup_link_created', 'admin.setup_link_used', 'password.changed'], limit: 10 });
      assert.deepEqual(events.map((e) => e.type).reverse(), ['admin.setup_link_created', 'password.changed', 'admin.setup_link_used']);
    });

    it('refuses an expired link, one replaced by a newer, and a wrong current password', async () => {
      const admin = await newAdmin();
      const user = (await findUserById(server.app.deps.db, admin.id))!;
      const first = await createSetupLink(server.app.deps, cliSource(server.clock.now()), user, server.clock.now() + 3_600_000);
      const second = await createSetupLink(server.app.deps, cliSource(server.clock.now()), user, server.clock.now() + 3_600_000);
      assert.ok(first.ok && second.ok);
      const browser = new ConsoleBrowser(base);
      await browser.request('GET', `${AUTH}/config`);
      assertAdminError(await browser.request('POST', `${AUTH}/auth/setup-link`, { key: first.token, password: PASSWORD }), 400, 'invalid_or_expired_key', 'key');
      // An account with a password confirms it: the link alone signs nobody in.
      assertAdminError(await browser.request('POST', `${AUTH}/auth/setup-link`, { key: second.token, password: 'not the password' }), 400, 'incorrect_password', 'password');
      server.clock.advance(3_600_001);
      assertAdminError(await browser.request('POST', `${AUTH}/auth/setup-link`, { key: second.token, password: PASSWORD }), 400, 'invalid_or_expired_key', 'key');
      assertAdminError(await browser.request('GET', '/console/api/v1/me'), 401, 'not_authenticated');
    });
  });
}
