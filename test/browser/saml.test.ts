import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { CSRF_SCRIPT, startSpaHost } from '../support/spa-host.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { providersEnv } from '../support/social.js';
import { freePort, IDP_ENTITY_ID, simpleSamlSkipReason, startSimpleSaml, type SimpleSamlIdp } from '../support/simplesamlphp.js';
import { nextPeriod, totpAt } from '../mfa/support.js';

// A SimpleSAMLphp user in Chromium, through an SPA that does what allauth's
// does: one button per provider of /config, whose click posts the redirect
// form; the IdP (on another site: localhost against the SPA's 127.0.0.1)
// asks for the password and posts its answer to the ACS; the SPA's callback
// page finds the session, or the second factor pending, and sends the TOTP
// code. Its logout follows meta.logout_redirect_url to the IdP, which ends
// its own session too: the next login asks for the password again.

const skip = browserSkipReason() ?? simpleSamlSkipReason();

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>SPA</title></head>
<body>
<div id="providers"></div>
<input id="code"><button id="verify">Verify</button><button id="logout">Log out</button>
<pre id="out"></pre>
<script>
const base = '/_service/browser/v1';
${CSRF_SCRIPT}
async function api(method, path, body) {
  const headers = { 'X-CSRFToken': csrf() };
  if (body) headers['Content-Type'] = 'application/json';
  const r = await fetch(base + path, { method, headers, credentials: 'same-origin', body: body ? JSON.stringify(body) : undefined });
  return { http: r.status, body: await r.json() };
}
function show(state) {
  document.getElementById('out').textContent = JSON.stringify({ ...state, path: location.pathname, search: location.search });
}
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
document.getElementById('verify').onclick = () => api('POST', '/auth/2fa/authenticate', { code: document.getElementById('code').value }).then(show);
// A logout of a session from SAML names where the IdP's single logout continues.
document.getElementById('logout').onclick = () => api('DELETE', '/auth/session').then((r) => {
  show(r);
  if (r.body.meta.logout_redirect_url) location.href = r.body.meta.logout_redirect_url;
});
fetch(base + '/config').then((r) => r.json()).then(async (config) => {
  for (const provider of config.data.socialaccount.providers) {
    const button = document.createElement('button');
    button.textContent = provider.name;
    button.dataset.provider = provider.id;
    button.onclick = () => redirectToProvider(provider.id, 'login');
    document.getElementById('providers').appendChild(button);
  }
  show(await api('GET', '/auth/session'));
  document.body.dataset.ready = 'yes';
});
</script>
</body></html>`;

describeUnlessSkipped('SAML login in Chromium against SimpleSAMLphp', skip, () => {
  let idp: SimpleSamlIdp;
  let server: TestServer;
  let host: Awaited<ReturnType<typeof startSpaHost>>;
  let browser: Browser;
  let page: Page;

  before(async () => {
    idp = await startSimpleSaml({ users: 1, host: 'localhost' });
    // The SPA's host is the frontend (where the logout lands), so it is up before the server, which listens behind it.
    const apiPort = await freePort();
    host = await startSpaHost(`http://127.0.0.1:${apiPort}`, { page: PAGE, passThrough: ['/_service/', '/accounts/'] });
    const app = {
      name: 'Acme Inc',
      provider_id: IDP_ENTITY_ID,
      client_id: 'acme',
      settings: {
        idp: { entity_id: IDP_ENTITY_ID, metadata_url: idp.metadataUrl },
        sp: { entity_id: 'urn:test:sp:browser' },
        advanced: { want_assertion_signed: true },
        verified_email: true,
      },
    };
    server = await startTestServer(
      'sqlite',
      providersEnv({ saml: { APPS: [app] } }, { FRONTEND_URL: host.url.replace(/\/$/, ''), ACCOUNT_EMAIL_VERIFICATION: 'none', TRUSTED_PROXY_COUNT: '1' }),
      { port: apiPort },
    );
    idp.registerSp({ entityId: 'urn:test:sp:browser', acs: `${host.url}accounts/saml/acme/acs/`, sls: `${host.url}accounts/saml/acme/sls/` });
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
    await idp?.close();
  });

  const state = async (): Promise<{ http: number; body: any; path: string; search: string }> => JSON.parse((await page.textContent('#out'))!);

  /** The SPA's provider button, and the IdP's password form when it asks: true when it asked. */
  async function signInThroughButton(): Promise<boolean> {
    await page.goto(host.url);
    await page.waitForSelector('body[data-ready="yes"]');
    await Promise.all([page.waitForURL((url) => url.origin === new URL(idp.url).origin), page.click(`button[data-provider="${IDP_ENTITY_ID}"]`)]);
    const user = idp.users[0]!;
    const landed = page.waitForURL(/\/account\/provider\/callback/);
    // Whichever comes first; the other wait is left to fail quietly (the page moved on).
    const asked = await Promise.race([
      page.waitForSelector('input[name="password"]').then(
        () => true,
        () => false,
      ),
      landed.then(() => false),
    ]);
    if (asked) {
      await page.fill('input[name="username"]', user.username);
      await page.fill('input[name="password"]', user.password);
      await page.press('input[name="password"]', 'Enter');
    }
    await landed;
    await page.waitForSelector('body[data-ready="yes"]');
    return asked;
  }

  it('logs in through the provider button, then with the second factor, and logs out at the IdP too', async () => {
    const user = idp.users[0]!;
    assert.equal(await signInThroughButton(), true, 'the IdP asked for the password');
    const first = await state();
    assert.equal(first.http, 200, JSON.stringify(first));
    assert.equal(first.search, '', 'no error on the landing');
    assert.equal(first.body.data.user.email, user.email);
    assert.deepEqual(first.body.data.methods.map((m: any) => [m.method, m.provider, m.uid]), [['socialaccount', IDP_ENTITY_ID, user.uid]]);

    // The user turns TOTP on from the SPA.
    const offer = await page.evaluate(() => (window as any).api('GET', '/account/authenticators/totp'));
    const secret: string = offer.body.meta.secret;
    const activated = await page.evaluate((code) => (window as any).api('POST', '/account/authenticators/totp', { code }), totpAt(server, secret));
    assert.equal(activated.http, 200, JSON.stringify(activated));

    // Logging out sends the browser through the IdP's single logout and back to the frontend.
    const frontend = new URL(host.url);
    const back = page.waitForURL((url) => url.origin === frontend.origin && url.pathname === '/');
    const atIdp = page.waitForRequest((request) => request.url().startsWith(`${idp.sloUrl}?SAMLRequest=`));
    await page.click('#logout');
    await atIdp;
    await back;
    await page.waitForSelector('body[data-ready="yes"]');
    assert.equal((await state()).http, 401);

    // The IdP's session ended with ours: it asks for the password again, then the SPA asks for the code.
    assert.equal(await signInThroughButton(), true, 'the IdP asked for the password again');
    const pending = await state();
    assert.equal(pending.http, 401, JSON.stringify(pending));
    const stage = pending.body.data.flows.find((f: any) => f.is_pending);
    assert.equal(stage?.id, 'mfa_authenticate');
    assert.ok(stage.types.includes('totp'));
    // A code of a later period than the one that turned TOTP on (a code is accepted once).
    nextPeriod(server);
    await page.fill('#code', totpAt(server, secret));
    await page.click('#verify');
    await page.waitForFunction(() => JSON.parse(document.getElementById('out')!.textContent!).http === 200);
    const done = await state();
    assert.equal(done.body.data.user.email, user.email);
    assert.deepEqual(done.body.data.methods.map((m: any) => m.method), ['socialaccount', 'mfa']);
  });
});
