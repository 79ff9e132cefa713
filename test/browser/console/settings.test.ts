import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { screenshots, startConsole, type ConsoleSuite } from './support.js';

// The settings screen in Chromium: the values the server started with in
// their groups, secrets never reaching the page (not even its HTML), unset
// ones saying "default", and the name filter kept in the URL.

const FALLBACK = 'old-fallback-secret-q7Zx9wVv3mKp2Lr8TtYy';
const URL_PASSWORD = 'hunter2-sms-pass-W4k9';
const ENV = {
  SITE_NAME: 'Acme Sign-in',
  SECRET_KEY_FALLBACKS: FALLBACK,
  SMS_BACKEND: 'webhook',
  SMS_WEBHOOK_URL: `https://sms-user:${URL_PASSWORD}@sms.example.com/send`,
  SMS_WEBHOOK_SECRET: 'whsec-sms-secret-Jd83hf72Hs',
};

describeUnlessSkipped('console settings in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  before(async () => {
    suite = await startConsole(ENV);
  });
  after(async () => suite?.close());

  const row = (name: string) => `#settings tr[data-setting="${name}"]`;

  it('shows each value in its group, hides the secrets from the page, marks defaults and filters by name in the URL', async () => {
    const page = await suite.signedInPage();
    await page.click('#nav-settings');
    await page.waitForSelector(row('SITE_NAME'));
    assert.equal(await page.getAttribute('#nav-settings', 'aria-current'), 'page');
    assert.equal(await page.textContent('#settings-branding h2'), 'Branding and languages');
    assert.equal(await page.textContent(`${row('SITE_NAME')} td.value`), 'Acme Sign-in');
    // A secret is hidden whole, a URL keeps all but its password: both say so.
    assert.equal((await page.textContent(`${row('SECRET_KEY_FALLBACKS')} td.value`))!.trim(), 'hidden');
    assert.equal((await page.textContent(`${row('SMS_WEBHOOK_SECRET')} td.value`))!.trim(), 'hidden');
    assert.match((await page.textContent(`${row('SMS_WEBHOOK_URL')} td.value`))!, /^https:\/\/sms-user:•+@sms\.example\.com\/send\s*secret parts hidden$/);
    const pageHtml = await page.content();
    for (const secret of [FALLBACK, URL_PASSWORD, ENV.SMS_WEBHOOK_SECRET, 'hunter2', 'q7Zx9wVv3mKp']) assert.ok(!pageHtml.includes(secret), `the page holds ${secret}`);
    // Unset: its documented default applies.
    assert.equal(await page.getAttribute(row('REDIS_URL'), 'data-set'), 'false');
    assert.equal(await page.textContent(`${row('REDIS_URL')} td.value`), 'default');
    assert.ok(await page.$(`${row('REDIS_URL')} td.value .muted`));
    await screenshots(page, 'settings');

    // The filter narrows the rows to matching names, in the URL and through a reload.
    const names = () => page.$$eval('#settings tr[data-setting]', (rows) => rows.map((r) => r.getAttribute('data-setting')));
    const before = (await names()).length;
    await page.fill('#settings-filter', 'sms_webhook');
    await page.waitForFunction(() => document.querySelectorAll('#settings tr[data-setting]').length === 2);
    assert.deepEqual(await names(), ['SMS_WEBHOOK_URL', 'SMS_WEBHOOK_SECRET']);
    assert.ok(before > 100, `${before} settings listed`);
    assert.match(page.url(), /#\/settings\?q=sms_webhook$/);
    assert.equal(await page.locator('#settings section.settings-group').count(), 1);
    await screenshots(page, 'settings-filtered');
    await page.reload();
    await page.waitForSelector(row('SMS_WEBHOOK_URL'));
    assert.equal(await page.inputValue('#settings-filter'), 'sms_webhook');
    assert.deepEqual(await names(), ['SMS_WEBHOOK_URL', 'SMS_WEBHOOK_SECRET']);
    await page.fill('#settings-filter', 'NO_SUCH_THING');
    await page.waitForSelector('#settings-none');
    await page.close();
  });
});
