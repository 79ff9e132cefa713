import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { PASSWORD, uniqueEmail } from '../../support/accounts.js';
import { nextPeriod, totpAt } from '../../mfa/support.js';
import { AdminClient, newKey } from '../../admin/support.js';
import { startConsole, WIDTHS, type ConsoleSuite } from './support.js';

// The console without a mouse: signing in, the menu, a search and a
// destructive action behind its dialog, all by Tab, Enter and Escape. Focus
// goes where the next keystroke is wanted (the code field after the
// password, Cancel in a dialog, the button again once it closes), and what
// has focus is outlined.
describeUnlessSkipped('console by keyboard in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  let api: AdminClient;
  before(async () => {
    suite = await startConsole();
    api = new AdminClient(suite.adminBase, (await newKey(suite.server, 'write')).secret);
  });
  after(async () => suite?.close());

  const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
  /** Presses Tab until the element with this id has focus: it is reachable in the page's order. */
  async function tabTo(page: Page, id: string, { backwards = false } = {}): Promise<void> {
    for (let i = 0; i < 80; i++) {
      if ((await focused(page)) === id) return;
      await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    }
    assert.fail(`#${id} is not reachable by ${backwards ? 'Shift+Tab' : 'Tab'} (focus stays on #${await focused(page)})`);
  }

  it('signs in, moves through the menu, finds a user and deactivates them, never touching the mouse', async () => {
    const email = uniqueEmail('kbd');
    const made = await api.post('/users', { email, email_verified: true });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const page = await suite.browser.newPage({ viewport: { width: WIDTHS[0], height: 900 } });
    await page.goto(suite.consoleUrl);
    await page.waitForSelector('#login');

    await tabTo(page, 'login');
    await page.keyboard.type(suite.admin.email);
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#code');
    await page.waitForFunction(() => document.activeElement?.id === 'code');
    nextPeriod(suite.server);
    await page.keyboard.type(totpAt(suite.server, suite.admin.secret));
    await page.keyboard.press('Enter');
    await page.waitForSelector('#dashboard');

    // What has focus is outlined.
    await tabTo(page, 'nav-users');
    assert.notEqual(await page.$eval('#nav-users', (a) => getComputedStyle(a).outlineStyle), 'none');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#search');
    await tabTo(page, 'search-text');
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`#results a:text("${email}")`);
    await page.keyboard.press('Tab');
    for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement?.closest('#results') !== null)); i++) await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), email, 'the first result is the next stop after the search');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#deactivate');

    // Escape closes the dialog, nothing done, and focus is back on its button.
    await tabTo(page, 'deactivate');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#confirm');
    assert.equal(await focused(page), 'confirm-no', 'a destructive dialog opens on Cancel');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#confirm', { state: 'detached' });
    assert.equal(await focused(page), 'deactivate');
    assert.equal((await api.get(`/users/${made.body.data.id}`)).body.data.is_active, true);

    // Enter on Cancel's neighbour does it.
    await page.keyboard.press('Enter');
    await page.waitForSelector('#confirm');
    await tabTo(page, 'confirm-yes', { backwards: true });
    await page.keyboard.press('Enter');
    await page.waitForSelector('#reactivate');
    assert.equal((await api.get(`/users/${made.body.data.id}`)).body.data.is_active, false);
    await page.close();
  });
});
