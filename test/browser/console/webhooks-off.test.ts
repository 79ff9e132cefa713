import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { screenshots, startConsole, type ConsoleSuite } from './support.js';

// The webhook deliveries screen of a server without WEBHOOK_URLS: it says
// that webhooks are off and how to turn them on, instead of an empty list
// that would read as "everything was delivered".

describeUnlessSkipped('console webhook deliveries without webhooks, in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  before(async () => {
    suite = await startConsole();
  });
  after(async () => suite?.close());

  it('says webhooks are off, with no list and nothing to send again', async () => {
    const page = await suite.signedInPage();
    await page.click('#nav-webhooks');
    await page.waitForSelector('#webhooks-off');
    assert.match((await page.textContent('#webhooks-off'))!, /Webhooks are off: WEBHOOK_URLS is not set/);
    assert.equal(await page.locator('#deliveries, #webhooks-none, #requeue-all').count(), 0);
    await screenshots(page, 'webhooks-off');
    await page.close();
  });
});
