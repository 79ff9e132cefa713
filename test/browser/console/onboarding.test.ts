import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { freePort } from '../../support/process-server.js';
import { PASSWORD, uniqueEmail } from '../../support/accounts.js';
import { nextPeriod, totpAt } from '../../mfa/support.js';
import { pageWithAuthenticator, screenshots, startConsole, type ConsoleSuite } from './support.js';
import { createAccount, setAdmin } from '../../../src/flows/admin/users.js';
import { createSetupLink, setupLinkUrl } from '../../../src/flows/admin/setup-links.js';
import { cliSource } from '../../../src/audit/recorder.js';
import { findUserById } from '../../../src/store/users.js';
import { listAuthenticators } from '../../../src/store/mfa-authenticators.js';

// The console's onboarding in Chromium: the first administrator (the role
// given by the CLI, no second factor yet) signs in with the password and is
// led through TOTP (QR code and typed key) and the recovery codes into the
// console instead of being turned away; a new administrator without a
// password opens the CLI's setup link, chooses one and adds a security key
// (DevTools' virtual authenticator), and signs in with it later; a passkey
// signs in on its own. The console runs on http://localhost:<ADMIN_PORT>,
// the origin the WebAuthn settings name.
const skip = browserSkipReason();

describeUnlessSkipped('admin console onboarding in Chromium', skip, () => {
  let suite: ConsoleSuite;
  let consoleUrl: string;

  before(async () => {
    const port = await freePort();
    suite = await startConsole({ ADMIN_PORT: String(port), MFA_WEBAUTHN_RP_ID: 'localhost', MFA_WEBAUTHN_ORIGINS: `http://localhost:${port}`, MFA_PASSKEY_LOGIN_ENABLED: 'true', MFA_SUPPORTED_TYPES: 'totp,recovery_codes,webauthn' });
    consoleUrl = `http://localhost:${port}/console`;
  });
  after(async () => {
    await suite?.close();
  });

  /** An administrator made as the CLI makes them: a verified address, the role, no second factor; with `password` or none. */
  async function newAdmin(password: string | null = PASSWORD): Promise<{ id: number; email: string }> {
    const { server } = suite;
    const email = uniqueEmail('onboard');
    const made = await createAccount(server.app.deps, cliSource(server.clock.now()), { email, password, verified: true });
    assert.ok(made.ok);
    await setAdmin(server.app.deps, cliSource(server.clock.now()), (await findUserById(server.app.deps.db, made.userId))!, true);
    return { id: made.userId, email };
  }

  const withAuthenticator = () => pageWithAuthenticator(suite.browser);

  async function passwordSignIn(page: Page, email: string): Promise<void> {
    await page.goto(consoleUrl);
    await page.waitForSelector('#login');
    await page.fill('#login', email);
    await page.fill('#password', PASSWORD);
    await page.click('#sign-in-submit');
  }

  /** Stores the recovery codes (as the person says they did) and goes on into the console. */
  async function keepCodes(page: Page): Promise<string[]> {
    await page.waitForSelector('#recovery-codes li');
    const codes = await page.locator('#recovery-codes li').allTextContents();
    assert.equal(await page.isDisabled('#onboarding-done'), true, 'the console waits until the codes are stored');
    assert.match((await page.getAttribute('#codes-download', 'href'))!, /^blob:/);
    await page.check('#codes-stored');
    await page.click('#onboarding-done');
    await page.waitForSelector('#sign-out');
    return codes;
  }

  it('leads the first administrator from a password sign-in through TOTP and the recovery codes into the console', async () => {
    const { server } = suite;
    const admin = await newAdmin();
    const { context, page } = await withAuthenticator();
    await passwordSignIn(page, admin.email);
    // Not turned away: the choice of a second factor, not the old "set one up, then sign in again".
    await page.waitForSelector('#onboarding[data-step="choose"]');
    assert.equal(await page.locator('#problem').count(), 0);
    assert.match((await page.textContent('#onboarding-who'))!, new RegExp(admin.email.replace(/[.+]/g, '\\$&')));
    await screenshots(page, 'onboarding-choose');

    await page.click('#choose-totp');
    await page.waitForSelector('#totp-qr');
    await page.waitForFunction(() => (document.querySelector('#totp-qr') as HTMLImageElement).naturalWidth > 0);
    assert.match((await page.getAttribute('#totp-qr', 'src'))!, /^data:image\/svg\+xml;base64,/);
    const secret = (await page.textContent('#totp-secret'))!.replace(/\s/g, '');
    assert.match(secret, /^[A-Z2-7]{16,}$/);
    await screenshots(page, 'onboarding-totp');

    // A wrong code is refused beside its input, the step stays.
    await page.fill('#totp-code', '000000');
    await page.click('#totp-submit');
    await page.waitForSelector('#totp-code-error');
    assert.equal(await page.getAttribute('#totp-code', 'aria-invalid'), 'true');
    await screenshots(page, 'onboarding-totp-wrong');

    nextPeriod(server);
    await page.fill('#totp-code', totpAt(server, secret));
    await page.click('#totp-submit');
    await page.waitForSelector('#recovery-codes li');
    await screenshots(page, 'onboarding-codes');
    const codes = await keepCodes(page);
    assert.equal(codes.length, server.app.deps.config.mfa.recoveryCodes.count);
    await page.waitForSelector('#nav-users');
    await screenshots(page, 'onboarding-console');

    // Next time the password is followed by a code, as for any administrator.
    await page.click('#sign-out');
    await passwordSignIn(page, admin.email);
    await page.waitForSelector('#code');
    await page.fill('#code', codes[0]!);
    await page.click('#code-submit');
    await page.waitForSelector('#sign-out');
    await context.close();
  });

  it('opens a setup link for a new administrator without a password, who chooses one and adds a security key, then signs in with it', async () => {
    const { server } = suite;
    const admin = await newAdmin(null);
    const made = await createSetupLink(server.app.deps, cliSource(server.clock.now()), (await findUserById(server.app.deps.db, admin.id))!, server.clock.now() + 86_400_000);
    assert.ok(made.ok);
    const link = setupLinkUrl(consoleUrl, made.token);
    const { context, page } = await withAuthenticator();
    await page.goto(link);
    await page.waitForSelector('#setup-intro');
    assert.match((await page.textContent('#setup-intro'))!, new RegExp(admin.email.replace(/[.+]/g, '\\$&')));
    await screenshots(page, 'setup-new-password');

    await page.fill('#setup-password', PASSWORD);
    await page.fill('#setup-repeat', `${PASSWORD}!`);
    await page.click('#setup-submit');
    await page.waitForSelector('#setup-repeat-error');
    await page.fill('#setup-password', 'short');
    await page.fill('#setup-repeat', 'short');
    await page.click('#setup-submit');
    await page.waitForSelector('#setup-password-error');
    await screenshots(page, 'setup-refused-password');
    await page.fill('#setup-password', PASSWORD);
    await page.fill('#setup-repeat', PASSWORD);
    await page.click('#setup-submit');

    await page.waitForSelector('#onboarding[data-step="choose"]');
    assert.equal(new URL(page.url()).hash, '#/dashboard', 'the token leaves the address bar');
    await page.click('#choose-webauthn');
    await page.waitForSelector('#key-name');
    await page.fill('#key-name', 'Blue key');
    await screenshots(page, 'onboarding-key');
    await page.click('#key-submit');
    await keepCodes(page);
    const keys = (await listAuthenticators(server.app.deps.db, admin.id)).filter((a) => a.type === 'webauthn');
    assert.deepEqual(keys.map((k) => (k.type === 'webauthn' ? k.name : '')), ['Blue key']);

    // The link worked once.
    await page.click('#sign-out');
    await page.goto(link);
    await page.waitForSelector('#setup-invalid');
    await screenshots(page, 'setup-invalid');

    // The password it set, then the key as the second step.
    await passwordSignIn(page, admin.email);
    await page.waitForSelector('#use-key');
    await screenshots(page, 'sign-in-second-factor-key');
    await page.click('#use-key');
    await page.waitForSelector('#sign-out');
    await context.close();
  });

  it('adds a passkey that later signs in on its own, without the password', async () => {
    const admin = await newAdmin();
    const { context, page } = await withAuthenticator();
    await passwordSignIn(page, admin.email);
    await page.waitForSelector('#choose-webauthn');
    await page.click('#choose-webauthn');
    await page.waitForSelector('#key-passkey');
    await page.check('#key-passkey');
    await page.click('#key-submit');
    await keepCodes(page);
    await page.click('#sign-out');

    await page.waitForSelector('#passkey-sign-in');
    await screenshots(page, 'sign-in-passkey');
    await page.click('#passkey-sign-in');
    await page.waitForSelector('#sign-out');
    assert.match((await page.textContent('.me'))!, new RegExp(admin.email.replace(/[.+]/g, '\\$&')));
    await context.close();
  });
});
