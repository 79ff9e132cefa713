import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { CSRF_SCRIPT, startSpaHost } from '../support/spa-host.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { startIdp, type TestIdp } from '../support/oidc-provider.js';
import { oidcApp, providersEnv } from '../support/social.js';

// Social login in Chromium, end to end: an SPA posts the redirect form as
// allauth's SPA does (csrfmiddlewaretoken from the csrftoken cookie), the
// browser goes to a real OpenID provider on another site (localhost against
// the app's 127.0.0.1), logs in there, comes back through the callback with
// its SameSite=Lax cookies, and the SPA finds itself logged in.

const skip = browserSkipReason();

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>SPA</title></head>
<body>
<button id="login-idp">Sign in with Test IdP</button>
<pre id="out"></pre>
<script>
const base = '/_service/browser/v1';
${CSRF_SCRIPT}
// allauth's SPA: a real form post, so the browser navigates to the provider.
function redirectToProvider(provider, process) {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = base + '/auth/provider/redirect';
  const fields = { provider, process, callback_url: location.origin + '/account/provider/callback', csrfmiddlewaretoken: csrf() };
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
document.getElementById('login-idp').onclick = () => redirectToProvider('idp', 'login');
if (location.pathname === '/account/provider/callback') {
  fetch(base + '/auth/session', { credentials: 'same-origin' }).then(async (r) => {
    document.getElementById('out').textContent = JSON.stringify({ http: r.status, search: location.search, body: await r.json() });
  });
} else {
  fetch(base + '/config').then(() => (document.body.dataset.ready = 'yes'));
}
</script>
</body></html>`;

describeUnlessSkipped('social login in Chromium', skip, () => {
  let idp: TestIdp;
  let server: TestServer;
  let host: Awaited<ReturnType<typeof startSpaHost>>;
  let browser: Browser;
  let page: Page;

  before(async () => {
    idp = await startIdp({ host: 'localhost' });
    server = await startTestServer(
      'sqlite',
      providersEnv({ openid_connect: { APPS: [oidcApp(idp, { id: 'idp', clientId: 'spa-client', name: 'Test IdP' })] } }, { ACCOUNT_EMAIL_VERIFICATION: 'none', TRUSTED_PROXY_COUNT: '1' }),
    );
    host = await startSpaHost(server.baseUrl, { page: PAGE, passThrough: ['/_service/', '/accounts/'] });
    idp.addClient({ client_id: 'spa-client', client_secret: 'spa-client-secret', redirect_uris: [`${host.url}accounts/oidc/idp/login/callback/`] });
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
    await idp?.close();
  });

  /** Clicks the sign-in button and waits for the SPA's callback page to report the session. */
  async function signIn(): Promise<{ http: number; search: string; body: any }> {
    await page.goto(host.url);
    await page.waitForSelector('body[data-ready="yes"]');
    await Promise.all([page.waitForURL(/\/account\/provider\/callback/), page.click('#login-idp')]);
    await page.waitForFunction(() => document.getElementById('out')!.textContent !== '');
    return JSON.parse((await page.textContent('#out'))!);
  }

  it('goes through the provider and comes back logged in', async () => {
    const sub = `browser-${randomUUID()}`;
    idp.addAccount(sub, { email: 'chromium@example.com', email_verified: true, name: 'Chromium User' });
    idp.defaultDecision = { sub };
    const visited: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(new URL(request.url()).origin);
    });

    const result = await signIn();
    assert.equal(result.http, 200, JSON.stringify(result.body));
    assert.equal(result.search, '', 'no error on the landing');
    assert.deepEqual(result.body.data.methods.map((m: any) => [m.method, m.provider, m.uid]), [['socialaccount', 'idp', sub]]);
    assert.ok(visited.includes(new URL(idp.issuer).origin), `the browser went to the provider: ${visited.join(' ')}`);
    assert.ok(visited.includes(new URL(host.url).origin));

    const cookies = await page.context().cookies();
    const binding = cookies.find((c) => c.name === 'socialaccount_binding');
    assert.ok(binding?.httpOnly && binding.path === '/accounts/' && binding.sameSite === 'Lax', JSON.stringify(binding));
    assert.ok(cookies.find((c) => c.name === 'sessionid')?.httpOnly);
  });

  it('comes back with error=cancelled when the user declines', async () => {
    await page.context().clearCookies();
    idp.defaultDecision = 'deny';
    const result = await signIn();
    assert.equal(result.search, '?error=cancelled&error_process=login');
    assert.equal(result.http, 401);
  });
});
