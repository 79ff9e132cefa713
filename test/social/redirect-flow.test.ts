import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describeEachDatabase } from '../support/server.js';
import { startIdp } from '../support/oidc-provider.js';
import { flowIds, keyFromMail, nthMail, PASSWORD, readyClient, uniqueEmail } from '../support/accounts.js';
import { approvedCallback, navigate, oidcApp, oidcCallback, providersEnv, redirectLogin, startRedirect, throughProvider } from '../support/social.js';
import type { ApiClient } from '../support/client.js';
import { hashSecret } from '../../src/security/secrets.js';

// The redirect flow in a browser's shoes, against a real OpenID provider:
// POST /auth/provider/redirect (a form), the provider's pages, the callback at
// the reference's path, and the landing on callback_url, for success and for
// every way it can go wrong (declined, replayed, another browser, expired,
// bad input, a code the provider refuses, parallel callbacks).

const idp = await startIdp();
after(() => idp.close());

const FRONTEND = 'http://localhost:3000';
const CALLBACK_URL = `${FRONTEND}/account/provider/callback`;
const LOGIN_ERROR = `${FRONTEND}/account/provider/callback`;
const PROVIDERS = {
  openid_connect: {
    APPS: [
      oidcApp(idp, { id: 'idp', clientId: 'web-client', name: 'Test IdP' }),
      // The reference's other settings: no PKCE, Basic client authentication, the ID token alone.
      oidcApp(idp, { id: 'plain', clientId: 'plain-client', settings: { oauth_pkce_enabled: false, token_auth_method: 'client_secret_basic', fetch_userinfo: false } }),
    ],
  },
};

describeEachDatabase('provider redirect flow', providersEnv(PROVIDERS, { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', FRONTEND_URL: FRONTEND }), ({ server }) => {
  before(() => {
    idp.addClient({ client_id: 'web-client', client_secret: 'web-client-secret', redirect_uris: [oidcCallback(server(), 'idp')] });
    idp.addClient({ client_id: 'plain-client', client_secret: 'plain-client-secret', redirect_uris: [oidcCallback(server(), 'plain')], token_endpoint_auth_method: 'client_secret_basic' });
  });

  /** A new account at the provider, verified address and all. */
  function providerAccount(claims: Record<string, unknown> = {}): { sub: string; email: string } {
    const sub = `user-${randomUUID()}`;
    const email = uniqueEmail('idp');
    idp.addAccount(sub, { email, email_verified: true, name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace', ...claims });
    return { sub, email };
  }

  async function loggedInWithPassword(client: ApiClient): Promise<number> {
    const email = uniqueEmail('local');
    assert.equal((await client.post('/auth/signup', { email, password: PASSWORD })).status, 401);
    const verified = await client.post('/auth/email/verify', { key: keyFromMail(await nthMail(server().mail, email, 1)) });
    assert.equal(verified.status, 200);
    return verified.body.data.user.id;
  }

  it('logs a new user in and lands on callback_url with nothing added', async () => {
    const browser = await readyClient(server(), 'browser');
    const account = providerAccount();
    const csrfBefore = browser.cookies.get('csrftoken');
    const landing = await redirectLogin(server(), idp, browser, { provider: 'idp', callback_url: CALLBACK_URL }, { sub: account.sub });
    assert.equal(landing.href, CALLBACK_URL);

    const session = await browser.get('/auth/session');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.data.user.email, account.email);
    assert.deepEqual(session.body.data.methods.map((m: any) => [m.method, m.provider, m.uid]), [['socialaccount', 'idp', account.sub]]);
    assert.notEqual(browser.cookies.get('csrftoken'), csrfBefore, 'the login rotated the CSRF token');
    const accounts = await browser.get('/account/providers');
    assert.deepEqual(accounts.body.data.map((a: any) => [a.uid, a.display]), [[account.sub, account.email]]);
    // The new account takes the provider's names, as the reference's populate_user gives them.
    assert.deepEqual((await browser.get('/account/profile')).body.data, { first_name: 'Ada', last_name: 'Lovelace' });
  });

  it('asks the provider for what the reference asks, with PKCE S256, and a nonce', async () => {
    const browser = await readyClient(server(), 'browser');
    const start = await startRedirect(server(), browser, { provider: 'idp', callback_url: CALLBACK_URL });
    const query = new URL(start.location!).searchParams;
    assert.equal(query.get('client_id'), 'web-client');
    assert.equal(query.get('redirect_uri'), `${server().baseUrl}/accounts/oidc/idp/login/callback/`);
    assert.equal(query.get('scope'), 'openid profile email');
    assert.equal(query.get('response_type'), 'code');
    assert.equal(query.get('code_challenge_method'), 'S256');
    assert.ok(query.get('code_challenge'));
    assert.ok((query.get('state') ?? '').length >= 16);
    assert.ok((query.get('nonce') ?? '').length >= 16);
    const binding = browser.cookies.get('socialaccount_binding');
    assert.ok(binding, 'the browser is bound to its flows by a cookie of its own');

    const account = providerAccount();
    idp.decide(query.get('state')!, { sub: account.sub });
    const landing = await navigate(browser, await throughProvider(start.location!, `${server().baseUrl}/accounts/`));
    assert.equal(landing.location, CALLBACK_URL);
    const exchange = idp.tokenRequests.at(-1)!;
    assert.ok(exchange.body.code_verifier, 'the code exchange proves the PKCE verifier');
    assert.equal(exchange.body.client_secret, 'web-client-secret', 'client_secret_post by default');
  });

  it('regression: sends a nonce per flow and logs in only when the ID token carries it back', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const start = await startRedirect(server(), await readyClient(server(), 'browser'), { provider: 'idp', callback_url: CALLBACK_URL });
      nonces.add(new URL(start.location!).searchParams.get('nonce')!);
    }
    assert.equal(nonces.size, 2, 'a new nonce for every flow');

    // The provider echoes the nonce it was given: changing (or dropping) it on the way gives an ID token with another one.
    for (const tamper of [(query: URLSearchParams) => query.set('nonce', `${query.get('nonce')}x`), (query: URLSearchParams) => query.delete('nonce')]) {
      const browser = await readyClient(server(), 'browser');
      const account = providerAccount();
      const start = await startRedirect(server(), browser, { provider: 'idp', callback_url: CALLBACK_URL });
      const authorization = new URL(start.location!);
      tamper(authorization.searchParams);
      idp.decide(authorization.searchParams.get('state')!, { sub: account.sub });
      const callback = await throughProvider(authorization.href, `${server().baseUrl}/accounts/`);
      const exchanges = idp.tokenRequests.length;
      const landing = await navigate(browser, callback);
      assert.equal(landing.location, `${CALLBACK_URL}?error=unknown&error_process=login`);
      assert.equal(idp.tokenRequests.length, exchanges + 1, 'the provider answered the exchange; its ID token was refused');
      assert.equal((await browser.get('/auth/session')).status, 401);
    }

    // Untouched, the same walk logs in (the ID token's nonce is required and matched).
    const account = providerAccount();
    const landing = await redirectLogin(server(), idp, await readyClient(server(), 'browser'), { provider: 'idp', callback_url: CALLBACK_URL }, { sub: account.sub });
    assert.equal(landing.href, CALLBACK_URL);
  });

  it('keeps the nonce sealed, and refuses the login when it no longer opens (SECRET_KEY changed)', async () => {
    const browser = await readyClient(server(), 'browser');
    const account = providerAccount();
    const { authorization, callback } = await approvedCallback(server(), browser, { provider: 'idp', callback_url: CALLBACK_URL }, (state) => idp.decide(state, { sub: account.sub }));
    const { db, atRest } = server().app.deps;
    const nonce = authorization.searchParams.get('nonce')!;
    const stateHash = hashSecret(authorization.searchParams.get('state')!);
    const stored = await db.selectFrom('social_login_states').select('nonce').where('state_hash', '=', stateHash).executeTakeFirstOrThrow();
    assert.ok(!stored.nonce!.includes(nonce), 'no nonce in clear');
    assert.equal(atRest.open(stored.nonce!, `socialstate:${stateHash}:nonce`), nonce);
    await db.updateTable('social_login_states').set({ nonce: atRest.seal(nonce, 'another context') }).where('state_hash', '=', stateHash).execute();
    const exchanges = idp.tokenRequests.length;
    assert.equal((await navigate(browser, callback)).location, `${CALLBACK_URL}?error=unknown&error_process=login`);
    assert.equal(idp.tokenRequests.length, exchanges, 'no code redeemed without a nonce to check');
    assert.equal((await browser.get('/auth/session')).status, 401);
  });

  it('honours oauth_pkce_enabled=false, client_secret_basic and fetch_userinfo=false', async () => {
    const browser = await readyClient(server(), 'browser');
    const account = providerAccount();
    const start = await startRedirect(server(), browser, { provider: 'plain', callback_url: CALLBACK_URL });
    const query = new URL(start.location!).searchParams;
    assert.equal(query.get('code_challenge'), null);
    idp.decide(query.get('state')!, { sub: account.sub });
    const landing = await navigate(browser, await throughProvider(start.location!, `${server().baseUrl}/accounts/`));
    assert.equal(landing.location, CALLBACK_URL);
    const exchange = idp.tokenRequests.at(-1)!;
    assert.match(exchange.authorization ?? '', /^Basic /);
    assert.equal(exchange.body.code_verifier, undefined);
    assert.equal((await browser.get('/auth/session')).body.data.user.email, account.email, 'the address came from the ID token');
  });

  it('lands with error=cancelled when the user declines at the provider', async () => {
    const landing = await redirectLogin(server(), idp, await readyClient(server(), 'browser'), { provider: 'idp', callback_url: CALLBACK_URL }, 'deny');
    assert.equal(landing.href, `${CALLBACK_URL}?error=cancelled&error_process=login`);
  });

  it('redeems a state once: a replayed callback goes to socialaccount_login_error', async () => {
    const browser = await readyClient(server(), 'browser');
    const account = providerAccount();
    const { callback } = await approvedCallback(server(), browser, { provider: 'idp', callback_url: CALLBACK_URL }, (state) => idp.decide(state, { sub: account.sub }));
    assert.equal((await navigate(browser, callback)).location, CALLBACK_URL);
    const replay = await navigate(browser, callback);
    assert.equal(replay.status, 302);
    assert.equal(replay.location, `${LOGIN_ERROR}?error=unknown&error_process=login`);
  });

  it('completes a state only in the browser that started it', async () => {
    const browser = await readyClient(server(), 'browser');
    const account = providerAccount();
    const { callback } = await approvedCallback(server(), browser, { provider: 'idp', callback_url: CALLBACK_URL }, (state) => idp.decide(state, { sub: account.sub }));
    // Login CSRF: the attacker's callback URL opened in a victim's browser.
    const victim = await readyClient(server(), 'browser');
    assert.equal((await navigate(victim, callback)).location, `${LOGIN_ERROR}?error=unknown&error_process=login`);
    assert.equal((await victim.get('/auth/session')).status, 401);
    assert.equal((await navigate(browser, callback)).location, CALLBACK_URL, 'the rightful browser still completes it');
  });

  it('refuses a state older than its lifetime', async () => {
    const browser = await readyClient(server(), 'browser');
    const account = providerAccount();
    const { callback } = await approvedCallback(server(), browser, { provider: 'idp', callback_url: CALLBACK_URL }, (state) => idp.decide(state, { sub: account.sub }));
    server().clock.advance(16 * 60_000);
    try {
      assert.equal((await navigate(browser, callback)).location, `${LOGIN_ERROR}?error=unknown&error_process=login`);
    } finally {
      server().clock.advance(-16 * 60_000);
    }
  });

  it('lets exactly one of two parallel callbacks redeem the state', async () => {
    const browser = await readyClient(server(), 'browser');
    const account = providerAccount();
    const { callback } = await approvedCallback(server(), browser, { provider: 'idp', callback_url: CALLBACK_URL }, (state) => idp.decide(state, { sub: account.sub }));
    const landings = await Promise.all([navigate(browser, callback), navigate(browser, callback)]);
    assert.deepEqual(landings.map((l) => l.location).sort(), [CALLBACK_URL, `${LOGIN_ERROR}?error=unknown&error_process=login`].sort());
  });

  it('lands with error=unknown when the provider refuses the code', async () => {
    const browser = await readyClient(server(), 'browser');
    const account = providerAccount();
    const approved = await approvedCallback(server(), browser, { provider: 'idp', callback_url: CALLBACK_URL }, (state) => idp.decide(state, { sub: account.sub }));
    const callback = new URL(approved.callback);
    callback.searchParams.set('code', 'forged-code');
    assert.equal((await navigate(browser, callback.href)).location, `${CALLBACK_URL}?error=unknown&error_process=login`);
  });

  it('sends bad requests on to socialaccount_login_error, never JSON', async () => {
    const browser = await readyClient(server(), 'browser');
    const errorLanding = `${LOGIN_ERROR}?error=unknown&error_process=login`;
    for (const fields of [
      { provider: 'nope', callback_url: CALLBACK_URL },
      { provider: 'idp', callback_url: CALLBACK_URL, process: 'signup' },
      { provider: 'idp', callback_url: 'https://evil.example.com/steal' },
      { provider: 'idp', callback_url: '//evil.example.com/steal' },
      { provider: 'idp', callback_url: '' },
    ]) {
      const hop = await startRedirect(server(), browser, fields);
      assert.equal(hop.status, 302, JSON.stringify(fields));
      assert.equal(hop.location, errorLanding, JSON.stringify(fields));
    }
    // A path on this host is a fine callback_url.
    const relative = await startRedirect(server(), browser, { provider: 'idp', callback_url: '/app/callback' });
    assert.ok(relative.location!.startsWith(idp.issuer));
  });

  it('needs the CSRF token in the form, and exists for browsers only', async () => {
    const browser = await readyClient(server(), 'browser');
    const url = `${server().baseUrl}/_service/browser/v1/auth/provider/redirect`;
    const body = new URLSearchParams({ provider: 'idp', callback_url: CALLBACK_URL, process: 'login' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.cookieHeader };
    const refused = await fetch(url, { method: 'POST', headers, body, redirect: 'manual' });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as any).errors[0].code, 'csrf_failed');
    const app = await fetch(`${server().baseUrl}/_service/app/v1/auth/provider/redirect`, { method: 'POST', headers, body, redirect: 'manual' });
    assert.equal(app.status, 404);
    await app.arrayBuffer();
  });

  it('holds a signup without an address as provider_signup, then completes it', async () => {
    const browser = await readyClient(server(), 'browser');
    const sub = `user-${randomUUID()}`;
    idp.addAccount(sub, { name: 'No Address' });
    const landing = await redirectLogin(server(), idp, browser, { provider: 'idp', callback_url: CALLBACK_URL }, { sub });
    assert.equal(landing.href, CALLBACK_URL);
    const session = await browser.get('/auth/session');
    assert.equal(session.status, 401);
    assert.ok(flowIds(session.body).includes('provider_signup!'));
    const email = uniqueEmail('later');
    assert.equal((await browser.post('/auth/provider/signup', { email })).status, 401);
    const verified = await browser.post('/auth/email/verify', { key: keyFromMail(await nthMail(server().mail, email, 1)) });
    assert.equal(verified.status, 200);
  });

  it('connects to the logged-in user, refuses another user\'s account and a logged-out connect', async () => {
    const browser = await readyClient(server(), 'browser');
    const userId = await loggedInWithPassword(browser);
    const account = providerAccount();
    const connected = await redirectLogin(server(), idp, browser, { provider: 'idp', callback_url: CALLBACK_URL, process: 'connect' }, { sub: account.sub });
    assert.equal(connected.href, CALLBACK_URL);
    const session = await browser.get('/auth/session');
    assert.equal(session.body.data.user.id, userId, 'still the same user');
    assert.deepEqual((await browser.get('/account/providers')).body.data.map((a: any) => a.uid), [account.sub]);

    const other = await readyClient(server(), 'browser');
    await loggedInWithPassword(other);
    const refused = await redirectLogin(server(), idp, other, { provider: 'idp', callback_url: CALLBACK_URL, process: 'connect' }, { sub: account.sub });
    assert.equal(refused.href, `${CALLBACK_URL}?error=connected_other&error_process=connect`);
    assert.deepEqual((await other.get('/account/providers')).body.data, []);

    const anonymous = await startRedirect(server(), await readyClient(server(), 'browser'), { provider: 'idp', callback_url: CALLBACK_URL, process: 'connect' });
    assert.equal(anonymous.location, `${CALLBACK_URL}?error=permission_denied&error_process=connect`);
  });
});
