import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import { readyClient, signedUp, PASSWORD } from '../support/accounts.js';
import { eventsOf } from '../audit/support.js';
import { IDP_ENV, REDIRECT_URI, authorize, codeFlow, consentForm, loggedInBrowser, navigate, registerClient, relyingParty } from './support.js';

// The hand-over to the SPA: an authorization request without a session here
// sends the browser to the frontend's login page with the way back; after
// logging in through the browser API it resumes. prompt and max_age, and
// the provider's session following ours.

describeEachDatabase('OpenID provider: login hand-over', IDP_ENV, ({ server }) => {
  async function start(rp: oidc.Configuration, params: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st', ...params });
    return { url, verifier };
  }

  it('sends a browser without a session to the login page and resumes after the login', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const api = await readyClient(server(), 'browser');
    const { url, verifier } = await start(rp);
    const first = await navigate(server(), api, url);
    assert.equal(first.url.origin + first.url.pathname, 'http://spa.test/account/login');
    const next = first.url.searchParams.get('next')!;
    assert.match(next, new RegExp(`^${server().baseUrl}/identity/o/interaction/[\\w-]+$`));

    const { email } = await signedUp(api);
    assert.equal((await api.delete('/auth/session')).status, 401);
    assert.equal((await api.post('/auth/login', { email, password: PASSWORD })).status, 200);
    const consent = await navigate(server(), api, next);
    assert.equal(consent.page?.status, 200);
    assert.match(consent.page!.html, /Relying party wants to access your/);
    assert.doesNotMatch(consent.page!.html, /<script|\son[a-z]+=/i, 'no script on the page');
    assert.match(consent.page!.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'none'/);
    const form = consentForm(consent.page!.html);
    const landed = await navigate(server(), api, form.action, { method: 'POST', form: { csrf: form.csrf, decision: 'allow' } });
    const tokens = await oidc.authorizationCodeGrant(rp, landed.url, { pkceCodeVerifier: verifier, expectedState: 'st' });
    assert.equal(tokens.claims()!.email, email);
    const granted = (await eventsOf(server(), 'idp.consent_granted')).find((e) => (e.detail as { client_id?: string }).client_id === client.id);
    assert.deepEqual((granted?.detail as { scopes?: string[] }).scopes, ['openid', 'email']);
  });

  it('a denied consent returns access_denied; a forged form is refused', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const { url } = await start(rp);
    const page = await navigate(server(), api, url);
    const form = consentForm(page.page!.html);
    const forged = await navigate(server(), api, form.action, { method: 'POST', form: { csrf: 'forged', decision: 'allow' } });
    assert.equal(forged.page?.status, 403);
    const denied = await navigate(server(), api, form.action, { method: 'POST', form: { csrf: form.csrf, decision: 'deny' } });
    assert.equal(denied.url.searchParams.get('error'), 'access_denied');
    const events = await eventsOf(server(), 'idp.consent_denied');
    assert.ok(events.some((e) => (e.detail as { client_id?: string }).client_id === client.id));
  });

  it('prompt=consent asks again for what was granted before', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    await codeFlow(server(), rp, api);
    const again = await navigate(server(), api, (await start(rp, { scope: 'openid email profile' })).url);
    assert.ok(again.url.searchParams.get('code'), 'granted before: no page');
    const asked = await navigate(server(), api, (await start(rp, { scope: 'openid email profile', prompt: 'consent' })).url);
    assert.equal(asked.page?.status, 200);
    assert.match(asked.page!.html, /wants to access your/);
  });

  it('skips consent for a client that skips it', async () => {
    const client = await registerClient(server(), { skipConsent: true });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const { url, verifier } = await start(rp);
    const landed = await authorize(server(), api, url, 'none');
    assert.ok(landed.searchParams.get('code'));
    await oidc.authorizationCodeGrant(rp, landed, { pkceCodeVerifier: verifier, expectedState: 'st' });
  });

  it('prompt=none: login_required without a session, a code with one; logging out here ends the provider\'s session', async () => {
    const client = await registerClient(server(), { skipConsent: true });
    const rp = await relyingParty(server(), client);
    const anonymous = await readyClient(server(), 'browser');
    const none = (await start(rp, { prompt: 'none' })).url;
    assert.equal((await authorize(server(), anonymous, none, 'none')).searchParams.get('error'), 'login_required');

    const { api } = await loggedInBrowser(server());
    await codeFlow(server(), rp, api);
    assert.ok((await authorize(server(), api, none, 'none')).searchParams.get('code'));
    assert.equal((await api.delete('/auth/session')).status, 401);
    assert.equal((await authorize(server(), api, none, 'none')).searchParams.get('error'), 'login_required');
  });

  it('prompt=login and max_age send a logged-in browser to log in again', async (t) => {
    const client = await registerClient(server(), { skipConsent: true });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    // Only advance() moves the clock: the reauthentication below falls in the request's second.
    server().clock.freeze();
    t.after(() => server().clock.thaw());
    const login = await navigate(server(), api, (await start(rp, { prompt: 'login' })).url);
    assert.equal(login.url.origin + login.url.pathname, 'http://spa.test/account/login');
    const next = login.url.searchParams.get('next')!;
    // Following `next` with the login from before the request is not enough.
    const stale = await navigate(server(), api, next);
    assert.equal(stale.url.origin + stale.url.pathname, 'http://spa.test/account/login');
    // The SPA reauthenticates the logged-in user, then follows `next`: a millisecond after the request, in the same second, counts.
    server().clock.advance(1);
    assert.equal((await api.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    const landed = await navigate(server(), api, next);
    assert.ok(landed.url.searchParams.get('code'), landed.url.toString());

    server().clock.advance(120_000);
    const old = await navigate(server(), api, (await start(rp, { max_age: '60' })).url);
    assert.equal(old.url.origin + old.url.pathname, 'http://spa.test/account/login');
  });
});
