import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../support/server.js';
import { launchBrowser } from '../../support/browser.js';
import { PASSWORD } from '../../support/accounts.js';
import { nextPeriod, totpAccount, totpAt } from '../../mfa/support.js';
import { adminUrl } from '../../admin/support.js';
import { setAdmin } from '../../../src/flows/admin/users.js';
import { cliSource } from '../../../src/audit/recorder.js';
import { findUserByEmail } from '../../../src/store/users.js';

// What every console suite in Chromium needs: one server with the admin
// listener, an administrator with TOTP, a browser, signing in, confirming a
// change, and screenshots at the two widths the console is made for.

/** Where the suites write their screenshots (look at them before a change lands). */
export const SCREENSHOTS = resolve(import.meta.dirname, '../../../test-output/console');
export const WIDTHS = [1280, 390] as const;

export interface ConsoleSuite {
  server: TestServer;
  browser: Browser;
  /** The admin listener's origin. */
  adminBase: string;
  /** The console page. */
  consoleUrl: string;
  admin: { email: string; secret: string; id: number };
  /** A page at 1280 px, signed in as the administrator. */
  signedInPage(): Promise<Page>;
  /** Signs a page in with a password and, when `secret` is given, a TOTP code. */
  signIn(page: Page, email: string, secret?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startConsole(env: Record<string, string> = {}): Promise<ConsoleSuite> {
  const server = await startTestServer('sqlite', { ADMIN_PORT: '0', ACCOUNT_EMAIL_VERIFICATION: 'optional', ACCOUNT_LOGIN_METHODS: 'email,username', ...env });
  const adminBase = await adminUrl(server);
  const consoleUrl = `${adminBase}/console`;
  const account = await totpAccount(server, 'app');
  const user = (await findUserByEmail(server.app.deps.db, account.email))!;
  await setAdmin(server.app.deps, cliSource(Date.now()), user, true);
  const admin = { email: account.email, secret: account.secret, id: user.id };
  const browser = await launchBrowser();

  async function signIn(page: Page, email: string, secret?: string): Promise<void> {
    await page.goto(consoleUrl);
    await page.waitForSelector('#login');
    await page.fill('#login', email);
    await page.fill('#password', PASSWORD);
    await page.click('#sign-in-submit');
    if (secret === undefined) return;
    await page.waitForSelector('#code');
    nextPeriod(server);
    await page.fill('#code', totpAt(server, secret));
    await page.click('#code-submit');
    await page.waitForSelector('#sign-out');
  }

  return {
    server,
    browser,
    adminBase,
    consoleUrl,
    admin,
    signIn,
    async signedInPage() {
      const page = await browser.newPage({ viewport: { width: WIDTHS[0], height: 900 } });
      await signIn(page, admin.email, admin.secret);
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Screenshots of the whole page at each width, as test-output/console/<name>-<width>.png,
 * after checking that nothing is wider than the window (no sideways scrolling at 390 px),
 * then the page back at its width.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `${name} at ${width} px scrolls sideways by ${overflow} px`);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** When a change asks for the password again (ACCOUNT_REAUTHENTICATION_TIMEOUT), confirms it; then waits for `selector`. */
export async function afterReauthentication(page: Page, selector: string): Promise<void> {
  const shown = await page.waitForSelector(`${selector}, #reauthenticate`);
  if ((await shown.getAttribute('id')) !== 'reauthenticate') return;
  await page.fill('#reauth-password', PASSWORD);
  await page.click('#reauth-submit');
  await page.waitForSelector(selector);
}

/** A browser context of its own with a virtual security key that verifies its user and is always touched. */
export async function pageWithAuthenticator(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { context, page };
}
