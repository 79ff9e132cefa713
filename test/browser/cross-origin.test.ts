import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';

// An app client on another origin, in Chromium: with its origin in
// CORS_ALLOWED_ORIGINS it signs up and uses its session token (a preflighted
// request); from an origin not listed the browser refuses to hand it answers.
const skip = browserSkipReason();

/** An empty page on an origin of its own (a port of its own). */
async function pageHost(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>app</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Calls the API from the page's origin; a CORS refusal comes back as `blocked`. */
function callFrom(page: Page, url: string, init: { method: string; headers?: Record<string, string>; body?: string }) {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        return { status: response.status, body: await response.json(), requestId: response.headers.get('x-request-id') };
      } catch (error) {
        return { blocked: String(error) };
      }
    },
    { url, init },
  );
}

describeUnlessSkipped('app client on another origin, in Chromium (issue 13 item 7)', skip, () => {
  let listed: Awaited<ReturnType<typeof pageHost>>;
  let unlisted: Awaited<ReturnType<typeof pageHost>>;
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    listed = await pageHost();
    unlisted = await pageHost();
    server = await startTestServer('sqlite', { ACCOUNT_EMAIL_VERIFICATION: 'none', CORS_ALLOWED_ORIGINS: listed.origin });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await listed?.close();
    await unlisted?.close();
  });

  it('a listed origin signs up and reads its session with X-Session-Token', async () => {
    const page = await browser.newPage();
    await page.goto(listed.origin);
    const api = `${server.baseUrl}/_service/app/v1`;
    const signup: any = await callFrom(page, `${api}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('cors'), password: PASSWORD }),
    });
    assert.equal(signup.status, 200, JSON.stringify(signup));
    assert.match(signup.requestId ?? '', /^[0-9a-f-]{36}$/, 'X-Request-Id is exposed');
    const token = signup.body.meta.session_token;
    const me: any = await callFrom(page, `${api}/auth/session`, { method: 'GET', headers: { 'x-session-token': token } });
    assert.equal(me.status, 200, JSON.stringify(me));
    assert.equal(me.body.meta.is_authenticated, true);
    await page.close();
  });

  it('an origin not listed gets no answer it can read', async () => {
    const page = await browser.newPage();
    await page.goto(unlisted.origin);
    const result: any = await callFrom(page, `${server.baseUrl}/_service/app/v1/auth/session`, { method: 'GET', headers: { 'x-session-token': 'anything' } });
    assert.match(result.blocked ?? '', /TypeError/, JSON.stringify(result));
    await page.close();
  });
});
