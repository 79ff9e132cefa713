import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { ConsoleBrowser } from '../../admin/support.js';
import { PASSWORD } from '../../support/accounts.js';
import { nextPeriod, totpAt } from '../../mfa/support.js';
import { screenshots, startConsole, type ConsoleSuite } from './support.js';

// The console's frame in Chromium: the menu marks where the page is, an
// unknown place says so, times name their zone, and a session that ends
// elsewhere brings the sign-in form back, saying why, on the next request.
describeUnlessSkipped('console shell in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  before(async () => (suite = await startConsole()));
  after(async () => suite?.close());

  it('marks the current section in the menu and answers an unknown place', async () => {
    const page = await suite.signedInPage();
    // Home is the dashboard; the users list is a click away.
    await page.waitForSelector('#dashboard');
    await page.click('#nav-users');
    await page.waitForSelector('#search');
    assert.equal(await page.getAttribute('#nav-users', 'aria-current'), 'page');
    assert.match((await page.textContent('footer'))!, /Times are in /);
    await screenshots(page, 'users-list');
    await page.goto(`${suite.consoleUrl}#/nowhere`);
    await page.waitForSelector('#not-found');
    await page.close();
  });

  it('shows the sign-in form again, saying why, once the session has ended elsewhere', async () => {
    const page = await suite.signedInPage();
    // Home is the dashboard; the users list is a click away.
    await page.waitForSelector('#dashboard');
    await page.click('#nav-users');
    await page.waitForSelector('#search');
    // The same administrator ends every session of theirs from another console.
    const other = new ConsoleBrowser(suite.adminBase);
    await other.signIn(suite.admin.email, PASSWORD, () => (nextPeriod(suite.server), totpAt(suite.server, suite.admin.secret)));
    const ended = await other.request('DELETE', `/console/api/v1/users/${suite.admin.id}/sessions`);
    assert.equal(ended.status, 200, JSON.stringify(ended.body));
    await page.click('#search-submit');
    await page.waitForSelector('#signed-out');
    await page.waitForSelector('#login');
    await page.close();
  });
});
