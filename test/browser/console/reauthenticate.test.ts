import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { freePort } from '../../support/process-server.js';
import { PASSWORD, uniqueEmail } from '../../support/accounts.js';
import { verifiedAccount } from '../../mfa/support.js';
import { pageWithAuthenticator, screenshots, startConsole, type ConsoleSuite } from './support.js';
import { createAccount, setAdmin } from '../../../src/flows/admin/users.js';
import { cliSource } from '../../../src/audit/recorder.js';
import { findUserByEmail, findUserById } from '../../../src/store/users.js';
import { listAuditEvents } from '../../../src/store/audit-events.js';

// Confirming a change again in Chromium for an administrator whose second
// factor is a security key (DevTools' virtual authenticator): past
// ACCOUNT_REAUTHENTICATION_TIMEOUT the dialog offers the key (and the
// password), not a code field they have no app for, and the key confirms
// the change. The console runs on http://localhost:<ADMIN_PORT>, the origin
// the WebAuthn settings name.
describeUnlessSkipped('console reauthentication with a security key in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  let consoleUrl: string;
  before(async () => {
    const port = await freePort();
    suite = await startConsole({ ADMIN_PORT: String(port), MFA_WEBAUTHN_RP_ID: 'localhost', MFA_WEBAUTHN_ORIGINS: `http://localhost:${port}`, MFA_SUPPORTED_TYPES: 'totp,recovery_codes,webauthn' });
    consoleUrl = `http://localhost:${port}/console`;
  });
  after(async () => suite?.close());

  const withAuthenticator = () => pageWithAuthenticator(suite.browser);

  it('offers the key to an administrator who has only a security key, and the key confirms the write', async () => {
    const { server } = suite;
    const email = uniqueEmail('keyadmin');
    const made = await createAccount(server.app.deps, cliSource(server.clock.now()), { email, password: PASSWORD, verified: true });
    assert.ok(made.ok);
    await setAdmin(server.app.deps, cliSource(server.clock.now()), (await findUserById(server.app.deps.db, made.userId))!, true);
    const target = await verifiedAccount(server, 'app');
    const targetId = (await findUserByEmail(server.app.deps.db, target.email))!.id;

    // The first sign-in enrols the key (and its recovery codes).
    const { context, page } = await withAuthenticator();
    await page.goto(consoleUrl);
    await page.waitForSelector('#login');
    await page.fill('#login', email);
    await page.fill('#password', PASSWORD);
    await page.click('#sign-in-submit');
    await page.click('#choose-webauthn');
    await page.fill('#key-name', 'Red key');
    await page.click('#key-submit');
    await page.waitForSelector('#recovery-codes li');
    await page.check('#codes-stored');
    await page.click('#onboarding-done');
    await page.waitForSelector('#sign-out');

    // Past the timeout, a write asks first: the key is offered, no TOTP app is assumed.
    server.clock.advance(301_000);
    await page.goto(`${consoleUrl}#/users/${targetId}`);
    await page.waitForSelector(`#user-page[data-user="${targetId}"]`);
    await page.click('#deactivate');
    await page.click('#confirm-yes');
    await page.waitForSelector('#reauthenticate #reauth-key');
    assert.match((await page.textContent('#reauthenticate'))!, /use your security key/i);
    assert.ok(await page.$('#reauth-password'), 'the password stays an alternative');
    await screenshots(page, 'reauthenticate-key');
    await page.click('#reauth-key');
    await page.waitForSelector('#reactivate');
    assert.equal(await page.$('#reauthenticate'), null);
    assert.equal(await page.textContent('#user-state'), 'disabled');
    const [reauthenticated] = await listAuditEvents(server.app.deps.db, { userId: made.userId, types: ['reauthenticated'], limit: 1 });
    assert.ok(reauthenticated, 'the key confirmation is audited');
    const [disabled] = await listAuditEvents(server.app.deps.db, { userId: targetId, types: ['account.disabled'], limit: 1 });
    assert.deepEqual([(disabled!.detail as any).actor, (disabled!.detail as any).actor_id], ['admin_console', made.userId]);
    await context.close();
  });
});
