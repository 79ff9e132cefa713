import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describeEachDatabase } from '../support/server.js';
import { startIdp } from '../support/oidc-provider.js';
import { readyClient, uniqueEmail } from '../support/accounts.js';
import { navigate, oidcApp, oidcCallback, providersEnv, startRedirect, throughProvider, type Hop } from '../support/social.js';

// Where a callback_url may send the browser (no open redirect): the form a
// browser follows must stay on this host or the frontend's, whatever the
// spelling, both on the errors answered at once and after the provider.

const idp = await startIdp();
after(() => idp.close());

const FRONTEND = 'http://localhost:3000';
const LOGIN_ERROR = `${FRONTEND}/account/provider/callback?error=unknown&error_process=login`;
const PROVIDERS = { openid_connect: { APPS: [oidcApp(idp, { id: 'idp', clientId: 'url-client' })] } };

/** Spellings that a lax check or a normalisation could turn into another host. */
const TRICKY = [
  '/..//evil.example/x',
  '/../..//evil.example',
  '/a/..//evil.example',
  '/\\evil.example/x',
  '/\\/evil.example',
  '/%2F%2Fevil.example',
  '/%5Cevil.example',
  '/%2e%2e//evil.example',
  'https:evil.example',
  'http:evil.example',
  'https:/evil.example',
  '//evil.example',
  '///evil.example',
  '/\\\\evil.example',
  '/./x',
  '/.//evil.example',
  'https://evil.example/x',
  'HTTPS://EVIL.EXAMPLE/x',
  'http://localhost:3000@evil.example/',
  'http://localhost:3000.evil.example/',
  'https://evil.example\\@localhost:3000/',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
];

describeEachDatabase('callback_url', providersEnv(PROVIDERS, { FRONTEND_URL: FRONTEND }), ({ server }) => {
  before(() => {
    idp.addClient({ client_id: 'url-client', client_secret: 'url-client-secret', redirect_uris: [oidcCallback(server(), 'idp')] });
  });

  const allowedHosts = () => new Set([new URL(server().baseUrl).host, new URL(FRONTEND).host]);

  /** Where a browser goes next: navigate resolves Location against the request's URL as a browser does. */
  function assertStaysHome(hop: Hop, what: string): void {
    assert.equal(hop.status, 302, what);
    const host = new URL(hop.location!).host;
    assert.ok(allowedHosts().has(host), `${what}: Location ${hop.location} leaves for ${host}`);
  }

  /** The login flow's landing when the user declines at the provider (or the refusal, when no flow starts). */
  async function declinedLanding(callbackUrl: string): Promise<Hop> {
    const browser = await readyClient(server(), 'browser');
    const start = await startRedirect(server(), browser, { provider: 'idp', callback_url: callbackUrl });
    if (!start.location?.startsWith(idp.issuer)) return start;
    idp.decide(new URL(start.location).searchParams.get('state')!, 'deny');
    return navigate(browser, await throughProvider(start.location, `${server().baseUrl}/accounts/`));
  }

  it('regression: a callback_url normalised onto another host never becomes the Location', async () => {
    for (const callbackUrl of TRICKY) {
      const what = JSON.stringify(callbackUrl);
      // A logged-out connect answers at once, before any trip to the provider.
      const connect = await startRedirect(server(), await readyClient(server(), 'browser'), { provider: 'idp', callback_url: callbackUrl, process: 'connect' });
      assertStaysHome(connect, `${what}, connect while logged out`);
      assertStaysHome(await declinedLanding(callbackUrl), `${what}, declined at the provider`);
    }
  });

  it('regression: a tab or newline inside a callback_url is refused before any redirect', async () => {
    // The URL parser drops them: `/\t/evil.example` would read as `//evil.example`.
    for (const callbackUrl of ['/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example', '/x\t/..//evil.example']) {
      const browser = await readyClient(server(), 'browser');
      const csrf = browser.cookies.get('csrftoken')!;
      const response = await fetch(`${server().baseUrl}/_service/browser/v1/auth/provider/redirect`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.cookieHeader },
        body: new URLSearchParams({ provider: 'idp', process: 'login', callback_url: callbackUrl, csrfmiddlewaretoken: csrf }).toString(),
        redirect: 'manual',
      });
      const body = (await response.json()) as { errors: Array<{ code: string; param?: string }> };
      assert.equal(response.status, 400, JSON.stringify(callbackUrl));
      assert.equal(response.headers.get('location'), null);
      assert.deepEqual(body.errors.map((e) => [e.code, e.param]), [['invalid', 'callback_url']]);
    }
  });

  it('regression: a callback_url is used as normalised, on every landing', async () => {
    const here = server().baseUrl;
    const connect = await startRedirect(server(), await readyClient(server(), 'browser'), { provider: 'idp', callback_url: '/./app/../x', process: 'connect' });
    assert.equal(connect.location, `${here}/x?error=permission_denied&error_process=connect`);
    assert.equal((await declinedLanding('/./app/../x')).location, `${here}/x?error=cancelled&error_process=login`);
    assert.equal((await declinedLanding('HTTP://LOCALHOST:3000/a/./b')).location, `${FRONTEND}/a/b?error=cancelled&error_process=login`);
  });

  it('still takes a path here, this host and the frontend\'s', async () => {
    const here = server().baseUrl;
    const host = new URL(here).host;
    for (const [callbackUrl, landing] of [
      ['/x', `${here}/x`],
      ['/./x', `${here}/x`],
      ['/app/callback?next=%2Fhome#top', `${here}/app/callback?next=%2Fhome#top`],
      [`http://${host}/app`, `http://${host}/app`],
      [`https://${host}/app`, `https://${host}/app`],
      [`${FRONTEND}/account/provider/callback`, `${FRONTEND}/account/provider/callback`],
    ] as const) {
      const browser = await readyClient(server(), 'browser');
      const sub = `user-${randomUUID()}`;
      idp.addAccount(sub, { email: uniqueEmail('url'), email_verified: true });
      const authorization = (await startRedirect(server(), browser, { provider: 'idp', callback_url: callbackUrl })).location ?? '';
      assert.ok(authorization.startsWith(idp.issuer), `${callbackUrl} is accepted`);
      idp.decide(new URL(authorization).searchParams.get('state')!, { sub });
      const landed = await navigate(browser, await throughProvider(authorization, `${here}/accounts/`));
      assert.equal(landed.location, landing, callbackUrl);
      assert.equal((await browser.get('/auth/session')).status, 200, callbackUrl);
    }
  });

  it('sends refused callback_urls to socialaccount_login_error', async () => {
    for (const callbackUrl of ['//evil.example', '/..//evil.example', 'https:evil.example', '/\\evil.example', 'x', '?a=b']) {
      const refused = await startRedirect(server(), await readyClient(server(), 'browser'), { provider: 'idp', callback_url: callbackUrl });
      assert.equal(refused.location, LOGIN_ERROR, callbackUrl);
    }
  });
});
