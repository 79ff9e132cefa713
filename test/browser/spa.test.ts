import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSpaHost } from '../support/spa-host.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { describeUnlessSkipped } from '../support/suites.js';

// A real browser drives a same-origin page through signup, session, logout
// and login: cookies, the CSRF header and its rotation as a SPA sees them.
const skip = browserSkipReason();

describeUnlessSkipped('browser client in Chromium', skip, () => {
  let server: TestServer;
  let host: Awaited<ReturnType<typeof startSpaHost>>;
  let browser: Browser;
  let page: Page;

  before(async () => {
    server = await startTestServer('sqlite', { ACCOUNT_EMAIL_VERIFICATION: 'none' });
    host = await startSpaHost(server.baseUrl);
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  async function click(id: string): Promise<{ http: number; body: any }> {
    await page.evaluate(() => (document.getElementById('out')!.textContent = ''));
    await page.click(`#${id}`);
    await page.waitForFunction(() => document.getElementById('out')!.textContent !== '');
    return JSON.parse((await page.textContent('#out'))!);
  }

  it('signs up, keeps the session in an HttpOnly cookie, logs out and back in', async () => {
    await page.goto(host.url);
    await page.waitForSelector('body[data-ready="yes"]');
    const cookies = await page.context().cookies();
    assert.ok(cookies.find((c) => c.name === 'csrftoken'), 'GET /config sets the csrftoken cookie');

    await page.fill('#email', 'browser@example.com');
    await page.fill('#password', 'a browser secret phrase');
    const signup = await click('signup');
    assert.equal(signup.http, 200);
    assert.equal(signup.body.meta.is_authenticated, true);
    assert.equal(signup.body.meta.session_token, undefined, 'browsers never see the session key');

    const session = (await page.context().cookies()).find((c) => c.name === 'sessionid');
    assert.ok(session?.httpOnly, 'sessionid is HttpOnly');
    assert.equal(await page.evaluate(() => document.cookie.includes('sessionid')), false);

    assert.equal((await click('whoami')).http, 200);
    assert.equal((await click('logout')).http, 401);
    assert.equal((await click('whoami')).http, 401);

    const before = (await page.context().cookies()).find((c) => c.name === 'csrftoken')!.value;
    assert.equal((await click('login')).http, 200);
    const afterLogin = (await page.context().cookies()).find((c) => c.name === 'csrftoken')!.value;
    assert.notEqual(afterLogin, before, 'login rotates the CSRF token');
    assert.equal((await click('whoami')).body.data.user.email, 'browser@example.com');
  });

  it('refuses a state change whose CSRF header does not match', async () => {
    await page.goto(host.url);
    const result = await page.evaluate(async () => {
      const r = await fetch('/_service/browser/v1/auth/session', { method: 'DELETE', headers: { 'X-CSRFToken': 'forged.value' } });
      return { status: r.status, type: r.headers.get('content-type'), body: await r.json() };
    });
    assert.equal(result.status, 403);
    assert.match(result.type!, /^application\/json/);
    assert.equal(result.body.errors[0].code, 'csrf_failed');
  });

  it('renders the OpenAPI page from local assets, under its content security policy', async () => {
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(server.baseUrl)) external.push(r.url());
    });
    // Chromium reports each refused script, style, image or request on the console.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/content security policy/i.test(message.text())) refused.push(message.text());
    });
    const response = await page.goto(`${server.baseUrl}/_service/openapi.html`);
    assert.match(response!.headers()['content-security-policy'] ?? '', /default-src 'self'/);
    await page.waitForSelector('.opblock-summary-path', { timeout: 15_000 });
    // Expanding an operation renders its schemas (styles, SVG icons) too.
    await page.click('.opblock-summary-path');
    await page.waitForSelector('.opblock-body');
    const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.textContent));
    assert.ok(paths.some((p) => p?.includes('/_service/app/v1/auth/login')));
    assert.deepEqual(external, [], 'no request leaves the server');
    assert.deepEqual(refused, [], 'nothing refused by the policy');
    await page.screenshot({ path: '.tmp/openapi.png' });
  });
});
