import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../src/config/config.js';
import { createTranslator } from '../../src/i18n/catalog.js';
import { loadTemplates } from '../../src/templates/load.js';
import { renderMail } from '../../src/messaging/mail-content.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';

// The HTML mails as a reader sees them: rendered by Chromium at a phone's width and a
// desktop's, the button and the code must be on screen and nothing may need sideways
// scrolling (long links and addresses included). Screenshots land in .tmp/mail-screenshots/.

const SHOTS = join(import.meta.dirname, '../../.tmp/mail-screenshots');
const config = loadConfig({ SITE_NAME: 'Acme Cloud Workspace', BRANDING_PRIMARY_COLOR: '#0b7a53' });
const i18n = createTranslator({ languages: config.languages.languages, defaultLanguage: 'en' });
const { templates } = loadTemplates(config, i18n);
const base = { email: 'maximiliane.mustermann-schneider@example-enterprise.com', current_site: { name: 'Acme Cloud Workspace', domain: 'app.acme.example' } };
const key = 'MQ-1uZ9fX-' + 'a1b2c3d4e5'.repeat(6);

const mails = [
  { name: 'login_code', language: 'de', context: { code: 'K7QX-94DM' }, button: false, code: 'K7QX-94DM' },
  { name: 'password_reset_key', language: 'fr', context: { key, password_reset_url: `https://app.acme.example/account/password/reset/key/${key}`, user: { email: base.email, username: '', display: base.email } }, button: true },
  { name: 'password_changed', language: 'en', context: { timestamp: '2 December 2026 at 09:30 UTC', ip: '2001:db8:85a3::8a2e:370:7334', user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15' }, button: false },
];

const skip = browserSkipReason();
describe('HTML mails in Chromium', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
  });

  for (const width of [390, 1280]) {
    it(`shows the button and the code without sideways scrolling at ${width} px`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      try {
        for (const mail of mails) {
          const { html } = renderMail(templates, config, `account/email/${mail.name}`, mail.language, { ...base, ...mail.context });
          await page.setContent(html);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `${mail.name} at ${width} px is ${overflow} px too wide`);
          if (mail.button) {
            const button = page.locator('td[bgcolor] > a').first();
            assert.ok(await button.isVisible(), `${mail.name}: the button`);
            const box = (await button.boundingBox())!;
            assert.ok(box.height >= 40 && box.x >= 0 && box.x + box.width <= width, `${mail.name}: the button at ${JSON.stringify(box)}`);
            assert.equal(await button.evaluate((a) => getComputedStyle(a.parentElement!).backgroundColor), 'rgb(11, 122, 83)');
          }
          if (mail.code) {
            const code = page.locator('td.code');
            assert.equal((await code.textContent())?.trim(), mail.code);
            const box = (await code.boundingBox())!;
            assert.ok(box.x >= 0 && box.x + box.width <= width, `${mail.name}: the code at ${JSON.stringify(box)}`);
            const style = await code.evaluate((td) => ({ size: parseFloat(getComputedStyle(td).fontSize), font: getComputedStyle(td).fontFamily }));
            assert.ok(style.size >= 24 && /mono|Consolas|Courier/i.test(style.font), JSON.stringify(style));
          }
          await page.screenshot({ path: join(SHOTS, `${mail.name}-${width}.png`), fullPage: true });
        }
      } finally {
        await page.close();
      }
    });
  }
});
