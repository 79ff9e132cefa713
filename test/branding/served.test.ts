import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { adminUrl } from '../admin/support.js';
import { CSS, SVG, brandFolder } from './fixtures.js';

// The brand's files served by the server itself, on the public listener and
// on the admin listener for the console, and the console wearing the brand
// in Chromium. One server for the file.

const file = brandFolder({ 'logo.svg': SVG, 'brand.css': CSS });
const PRIMARY = '#aa3300';

describe('brand files and the branded console', () => {
  let server: TestServer;
  let admin: string;
  let browser: Browser | undefined;
  const skip = browserSkipReason();

  before(async () => {
    server = await startTestServer('sqlite', {
      ADMIN_PORT: '0',
      SITE_NAME: 'Acme Cloud',
      PUBLIC_URL: 'https://auth.acme.example',
      BRANDING_LOGO_FILE: file('logo.svg'),
      BRANDING_STYLESHEET_FILE: file('brand.css'),
      BRANDING_PRIMARY_COLOR: PRIMARY,
      BRANDING_PRIMARY_TEXT_COLOR: '#fffff0',
    });
    admin = await adminUrl(server);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The served URL's path and query, asked of this test server. */
  const local = (url: string) => {
    const { pathname, search } = new URL(url);
    return `${server.baseUrl}${pathname}${search}`;
  };

  it('serves the logo under its type, sandboxed, versioned and cached for a year', async () => {
    const { logoUrl } = server.app.deps.config.branding;
    assert.match(logoUrl!, /^https:\/\/auth\.acme\.example\/_service\/brand\/logo\.svg\?v=/, 'mails get the absolute URL');
    const response = await fetch(local(logoUrl!));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/svg+xml');
    assert.match(response.headers.get('content-security-policy')!, /default-src 'none'.*sandbox/);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin', 'webmail shows it from another origin');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await response.text(), SVG);

    const etag = response.headers.get('etag')!;
    const unversioned = await fetch(`${server.baseUrl}/_service/brand/logo.svg`, { headers: { 'if-none-match': etag } });
    assert.equal(unversioned.status, 304);
    assert.equal(unversioned.headers.get('cache-control'), 'public, max-age=3600', 'a stable path without the digest revalidates');
  });

  it('serves the stylesheet as CSS', async () => {
    const response = await fetch(local(server.app.deps.config.branding.stylesheetUrl!));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.ok(response.headers.get('etag'));
    assert.equal(await response.text(), CSS);
    assert.equal((await fetch(`${server.baseUrl}/_service/brand/logo.png`)).status, 404, 'only the type the file is');
  });

  it('gives the console its own copies, its colours and a favicon, under a same-origin policy', async () => {
    const about = await (await fetch(`${admin}/console/brand/brand.json`)).json();
    assert.equal(about.data.site_name, 'Acme Cloud');
    assert.match(about.data.logo_url, /^\/console\/brand\/logo\.svg\?v=/);
    assert.equal((await fetch(`${admin}${about.data.logo_url}`)).headers.get('content-type'), 'image/svg+xml');

    const css = await (await fetch(`${admin}/console/brand/brand.css`)).text();
    assert.match(css, /^@import url\("\/console\/brand\/style\.css\?v=[\w-]+"\);/);
    assert.match(css, new RegExp(`--brand-primary: ${PRIMARY};`));

    const icon = await fetch(`${admin}/console/brand/icon`, { redirect: 'manual' });
    assert.equal(icon.headers.get('location'), about.data.logo_url);

    const policy = (await fetch(`${admin}/console`)).headers.get('content-security-policy')!;
    assert.match(policy, /img-src 'self' data:;/, 'files served here need no other origin');
    assert.match(policy, /style-src 'self';/);
  });

  it('shows the brand in the console in Chromium', { skip }, async () => {
    browser = await launchBrowser();
    const page = await browser.newPage();
    await page.goto(`${admin}/console`);
    await page.waitForSelector('#sign-in .brand img.logo');
    assert.equal(await page.title(), 'Acme Cloud · Admin console');
    assert.equal(await page.textContent('#sign-in .site-name'), 'Acme Cloud');
    assert.ok(await page.$eval('#sign-in img.logo', (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), 'the logo loads under the policy');
    // The deployer's stylesheet sets --brand-primary after the configured colour, and wins.
    assert.equal(await page.$eval('#sign-in-submit', (b) => getComputedStyle(b).backgroundColor), 'rgb(18, 52, 86)');
    assert.equal(await page.$eval('#sign-in-submit', (b) => getComputedStyle(b).color), 'rgb(255, 255, 240)');
    assert.equal(await page.$eval('body', (b) => getComputedStyle(b).letterSpacing), '0.16px', 'the stylesheet applies');
    assert.equal(await page.$eval('link[rel=icon]', (l) => (l as HTMLLinkElement).href), `${admin}/console/brand/icon`);
  });
});
