import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { CSRF_SCRIPT, startSpaHost } from '../support/spa-host.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { totpAccount, totpAt } from '../mfa/support.js';
import { readyClient, signedUp } from '../support/accounts.js';
import { PRIVATE_KEY, registerClient, relyingParty } from '../idp/support.js';

// The browser path of the OpenID provider in Chromium: an application sends
// a browser without a session to /identity/o/authorize; the provider hands
// it to the SPA's login page, where the user logs in through the browser API
// with a password and a TOTP code; the browser returns to the provider,
// meets the server-rendered consent page, allows, and lands on the
// application's redirect URI with a code that openid-client redeems.
const skip = browserSkipReason();

/** The SPA's login page: a password, then the second factor when asked, then back to `next`. */
const LOGIN_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Log in</title></head>
<body>
<form id="password-form"><input id="email" type="email"><input id="password" type="password"><button id="login">Log in</button></form>
<form id="code-form" hidden><input id="code" autocomplete="one-time-code"><button id="verify">Verify</button></form>
<pre id="out"></pre>
<script>
const base = '/_service/browser/v1';
${CSRF_SCRIPT}
const next = new URLSearchParams(location.search).get('next');
async function post(path, body) {
  const r = await fetch(base + path, { method: 'POST', headers: { 'X-CSRFToken': csrf(), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}
function done(result) {
  if (result.status === 200) location.href = next;
  else if (result.body.data && result.body.data.flows && result.body.data.flows.some((f) => f.id === 'mfa_authenticate' && f.is_pending)) {
    document.getElementById('code-form').hidden = false;
  } else document.getElementById('out').textContent = JSON.stringify(result);
}
document.getElementById('password-form').onsubmit = async (e) => {
  e.preventDefault();
  done(await post('/auth/login', { email: document.getElementById('email').value, password: document.getElementById('password').value }));
};
document.getElementById('code-form').onsubmit = async (e) => {
  e.preventDefault();
  done(await post('/auth/2fa/authenticate', { code: document.getElementById('code').value }));
};
fetch(base + '/config').then(() => document.body.dataset.ready = 'yes');
</script>
</body></html>`;

/**
 * A relying party not built on panva's libraries: a single-page application
 * on oidc-client-ts (authts), a public client with PKCE that loads
 * discovery, redeems its code, reads userinfo and refreshes from the page,
 * through the provider's CORS for its registered origin.
 */
const OIDC_CLIENT_TS = readFileSync(join(dirname(fileURLToPath(import.meta.resolve('oidc-client-ts/package.json'))), 'dist/browser/oidc-client-ts.min.js'));
const APP_SCRIPT = `<script src="/oidc-client-ts.js"></script>
<script>
const query = new URLSearchParams(location.search);
if (query.get('client_id')) sessionStorage.setItem('settings', JSON.stringify({ authority: query.get('authority'), client_id: query.get('client_id') }));
const manager = new oidc.UserManager({ ...JSON.parse(sessionStorage.getItem('settings')), redirect_uri: location.origin + '/app-callback', post_logout_redirect_uri: location.origin + '/signed-out', scope: 'openid email', response_type: 'code', loadUserInfo: true });
const show = (user) => { document.getElementById('out').textContent = JSON.stringify(user && { sub: user.profile.sub, email: user.profile.email, sid: user.profile.sid, access_token: user.access_token, refresh: Boolean(user.refresh_token) }); };
</script>`;
const APP_PAGE = `<!doctype html><meta charset="utf-8"><title>App</title>${APP_SCRIPT}
<button id="login">Sign in</button><button id="renew">Renew</button><button id="logout">Sign out</button><pre id="out"></pre>
<script>
document.getElementById('login').onclick = () => manager.signinRedirect();
document.getElementById('renew').onclick = () => manager.signinSilent().then(show, (e) => { document.getElementById('out').textContent = 'error ' + e.message; });
document.getElementById('logout').onclick = () => manager.signoutRedirect();
manager.getUser().then((user) => { show(user); document.body.dataset.ready = 'yes'; });
</script>`;
const APP_CALLBACK = `<!doctype html><meta charset="utf-8"><title>Callback</title>${APP_SCRIPT}<pre id="out"></pre>
<script>
manager.signinRedirectCallback().then((user) => { show(user); document.body.dataset.done = 'yes'; }, (e) => { document.getElementById('out').textContent = 'error ' + e.message; document.body.dataset.done = 'error'; });
</script>`;

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describeUnlessSkipped('OpenID provider in Chromium', skip, () => {
  let server: TestServer;
  let spa: Awaited<ReturnType<typeof startSpaHost>>;
  let rpHost: http.Server;
  let rpBase: string;
  let browser: Browser;

  before(async () => {
    const port = await freePort();
    spa = await startSpaHost(`http://127.0.0.1:${port}`, { page: LOGIN_PAGE, passThrough: ['/_service/', '/identity/', '/.well-known/'] });
    const frontend = spa.url.replace(/\/$/, '');
    // Logout without asking: the page that ends the session submits itself, under its CSP's script hash.
    server = await startTestServer(
      'sqlite',
      { IDP_OIDC_ENABLED: 'true', IDP_OIDC_PRIVATE_KEY: PRIVATE_KEY, TRUSTED_PROXY_COUNT: '1', FRONTEND_URL: frontend, IDP_OIDC_RP_INITIATED_LOGOUT_ASKS_FOR_OP_LOGOUT: 'false' },
      { port },
    );
    rpHost = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://rp').pathname;
      if (path === '/oidc-client-ts.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(OIDC_CLIENT_TS);
      const html = path === '/app' ? APP_PAGE : path === '/app-callback' ? APP_CALLBACK : '<!doctype html><title>Application</title><p>signed in</p>';
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    });
    await new Promise<void>((resolve) => rpHost.listen(0, '127.0.0.1', resolve));
    rpBase = `http://127.0.0.1:${(rpHost.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    rpHost?.closeAllConnections();
    await new Promise<void>((resolve) => (rpHost ? rpHost.close(() => resolve()) : resolve()));
    await spa?.close();
    await server?.close();
  });

  it('from an unauthenticated authorize, through the login page with TOTP and the consent page, back to the client with a code', async () => {
    const account = await totpAccount(server, 'browser');
    const client = await registerClient(server, { redirectUris: [`${rpBase}/callback`], name: 'Wiki' });
    // The issuer is the origin the browser uses: the SPA's host, which passes /identity/ and /.well-known/ through.
    const rp = await relyingParty({ ...server, baseUrl: spa.url.replace(/\/$/, '') }, client);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: `${rpBase}/callback`,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'browser-state',
      nonce: 'browser-nonce',
    });

    const page = await browser.newPage();
    try {
      await page.goto(url.toString());
      await page.waitForSelector('body[data-ready="yes"]');
      assert.match(page.url(), /\/account\/login\?next=/);
      await page.fill('#email', account.email);
      await page.fill('#password', account.password);
      await page.click('#login');
      await page.waitForSelector('#code-form:not([hidden])');
      await page.fill('#code', totpAt(server, account.secret));
      await page.click('#verify');

      await page.waitForSelector('text=Wiki wants to access your');
      const csp = (await page.context().request.get(page.url())).headers()['content-security-policy'];
      assert.match(csp ?? '', /default-src 'none'/);
      await Promise.all([page.waitForURL(`${rpBase}/callback?**`), page.click('button[value="allow"]')]);

      const callback = new URL(page.url());
      assert.ok(callback.searchParams.get('code'));
      const tokens = await oidc.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: 'browser-state', expectedNonce: 'browser-nonce' });
      const claims = tokens.claims()!;
      assert.equal(claims.email, account.email);
      assert.deepEqual([...(claims.amr as string[])].sort(), ['mfa', 'otp', 'pwd']);
    } finally {
      await page.close();
    }
  });

  it('RP-initiated logout for the hinted user ends the session here without asking, and returns to the client', async () => {
    const api = await readyClient(server, 'browser');
    const { email, password } = await signedUp(api);
    const client = await registerClient(server, { redirectUris: [`${rpBase}/callback`], postLogoutRedirectUris: [`${rpBase}/logged-out`], skipConsent: true });
    const rp = await relyingParty({ ...server, baseUrl: spa.url.replace(/\/$/, '') }, client);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: `${rpBase}/callback`, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 's' });
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(url.toString());
      await page.waitForSelector('body[data-ready="yes"]');
      await page.fill('#email', email);
      await page.fill('#password', password);
      await Promise.all([page.waitForURL(`${rpBase}/callback?**`), page.click('#login')]);
      const tokens = await oidc.authorizationCodeGrant(rp, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: 's' });

      const logout = `${spa.url}identity/o/logout?${new URLSearchParams({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${rpBase}/logged-out`, state: 'bye' })}`;
      await page.goto(logout);
      await page.waitForURL(`${rpBase}/logged-out?state=bye`);
      await page.goto(spa.url);
      const session = await page.evaluate(async () => (await fetch('/_service/browser/v1/auth/session')).status);
      assert.equal(session, 401, 'the session here ended');
    } finally {
      await context.close();
    }
  });

  it('a relying party not built on panva\'s libraries (oidc-client-ts in the page): sign-in with PKCE, userinfo, refresh, sign-out', async () => {
    const api = await readyClient(server, 'browser');
    const { email, password } = await signedUp(api);
    const client = await registerClient(server, {
      type: 'public',
      redirectUris: [`${rpBase}/app-callback`],
      postLogoutRedirectUris: [`${rpBase}/signed-out`],
      corsOrigins: [rpBase],
      skipConsent: true,
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const shown = async () => {
      const text = (await page.textContent('#out')) || 'null';
      assert.ok(!text.startsWith('error'), text);
      return JSON.parse(text);
    };
    try {
      await page.goto(`${rpBase}/app?${new URLSearchParams({ authority: spa.url.replace(/\/$/, ''), client_id: client.id })}`);
      await page.waitForSelector('body[data-ready="yes"]');
      await Promise.all([page.waitForURL(/\/account\/login\?next=/), page.click('#login')]);
      await page.waitForSelector('body[data-ready="yes"]');
      await page.fill('#email', email);
      await page.fill('#password', password);
      await page.click('#login');
      await page.waitForSelector('body[data-done]');
      const user = await shown();
      assert.equal(user?.email, email, 'the e-mail address read from userinfo');
      assert.ok(user.sid, 'the ID token names the session');
      assert.equal(user.refresh, true);

      await page.goto(`${rpBase}/app`);
      await page.waitForSelector('body[data-ready="yes"]');
      await page.click('#renew');
      await page.waitForFunction((before) => { const text = document.getElementById('out')!.textContent ?? ''; return text.startsWith('error') || !text.includes(before); }, user.access_token);
      const renewed = await shown();
      assert.equal(renewed.sub, user.sub);
      assert.notEqual(renewed.access_token, user.access_token, 'a new access token from the refresh token');

      // A page of its own to come back to: waiting for /app would be met before the sign-out left it.
      await Promise.all([page.waitForURL(`${rpBase}/signed-out`), page.click('#logout')]);
      await page.goto(spa.url);
      assert.equal(await page.evaluate(async () => (await fetch('/_service/browser/v1/auth/session')).status), 401, 'signed out here too');
    } finally {
      await context.close();
    }
  });
});
