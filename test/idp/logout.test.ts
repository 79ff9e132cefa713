import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import type { ApiClient } from '../support/client.js';
import type { TestServer } from '../support/server.js';
import { eventsOf } from '../audit/support.js';
import * as oidc from 'openid-client';
import { IDP_ENV, REDIRECT_URI, codeFlow, loggedInBrowser, navigate, registerClient, relyingParty } from './support.js';

// RP-initiated logout at /identity/o/logout: the user is asked whether to
// sign out here too (IDP_OIDC_RP_INITIATED_LOGOUT_ASKS_FOR_OP_LOGOUT), then
// returns to the client's registered post-logout URI with its state.

const LOGGED_OUT = 'http://rp.test/logged-out';

function logoutForm(html: string): { action: string; xsrf: string } {
  const action = /<form id="op\.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(action && xsrf, html.slice(0, 500));
  return { action, xsrf };
}

async function signedIn(server: TestServer): Promise<{ api: ApiClient; idToken: string }> {
  const client = await registerClient(server, { postLogoutRedirectUris: [LOGGED_OUT] });
  const rp = await relyingParty(server, client);
  const { api } = await loggedInBrowser(server);
  const { tokens } = await codeFlow(server, rp, api);
  return { api, idToken: tokens.id_token! };
}

function logoutUrl(idToken: string): string {
  return `/identity/o/logout?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: LOGGED_OUT, state: 'bye' })}`;
}

describeEachDatabase('OpenID provider: RP-initiated logout', IDP_ENV, ({ server }) => {
  it('asks, signs out here on "yes" and returns to the client with its state', async () => {
    const { api, idToken } = await signedIn(server());
    const asked = await navigate(server(), api, logoutUrl(idToken));
    assert.equal(asked.page?.status, 200);
    assert.match(asked.page!.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const form = logoutForm(asked.page!.html);
    const done = await navigate(server(), api, form.action, { method: 'POST', form: { xsrf: form.xsrf, logout: 'yes' } });
    assert.equal(done.url.toString(), `${LOGGED_OUT}?state=bye`);
    assert.equal((await api.get('/auth/session')).status, 401, 'the session here ended');
  });

  it('"stay signed in" keeps the session here', async () => {
    const { api, idToken } = await signedIn(server());
    const asked = await navigate(server(), api, logoutUrl(idToken));
    const form = logoutForm(asked.page!.html);
    const done = await navigate(server(), api, form.action, { method: 'POST', form: { xsrf: form.xsrf } });
    assert.equal(done.url.toString(), `${LOGGED_OUT}?state=bye`);
    assert.equal((await api.get('/auth/session')).status, 200);
  });

  it('a confirmation with a made-up xsrf ends nothing here', async () => {
    const { api, idToken } = await signedIn(server());
    const userId = Number((await api.get('/auth/session')).body.data.user.id);
    const logouts = (await eventsOf(server(), 'logout', userId)).length;
    const asked = await navigate(server(), api, logoutUrl(idToken));
    const { action } = logoutForm(asked.page!.html);
    const forged = await navigate(server(), api, action, { method: 'POST', form: { xsrf: 'made-up', logout: 'yes' } });
    assert.equal(forged.page?.status, 400);
    assert.equal((await api.get('/auth/session')).status, 200, 'the session here is alive');
    assert.equal((await eventsOf(server(), 'logout', userId)).length, logouts);
  });

  it('another user logging in on the same browser ends only the provider session of the first', async () => {
    const client = await registerClient(server(), { skipConsent: true });
    const rp = await relyingParty(server(), client);
    const first = await loggedInBrowser(server());
    await codeFlow(server(), rp, first.api);
    assert.equal((await first.api.delete('/auth/session')).status, 401);
    // The same browser (its cookies: the provider's session of the first user), a second account.
    const second = await loggedInBrowser(server(), first.api);
    const secondId = Number((await second.api.get('/auth/session')).body.data.user.id);
    const logouts = (await eventsOf(server(), 'logout', secondId)).length;
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    // The provider's own form ends the first user's provider session; the browser submits it.
    const page = (await navigate(server(), second.api, url)).page!;
    const action = /<form method="post" action="([^"]+)"/.exec(page.html)?.[1];
    const fields = Object.fromEntries([...page.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    assert.ok(action && fields.logout === 'yes', page.html.slice(0, 500));
    const callback = (await navigate(server(), second.api, action.replaceAll('&amp;', '&'), { method: 'POST', form: fields })).url;
    const tokens = await oidc.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier });
    assert.equal(tokens.claims()!.sub, String(secondId));
    assert.equal((await second.api.get('/auth/session')).status, 200, 'the second user is still logged in here');
    assert.equal((await eventsOf(server(), 'logout', secondId)).length, logouts);
  });

  it('refuses an unregistered post-logout URI', async () => {
    const { api, idToken } = await signedIn(server());
    const response = await navigate(server(), api, `/identity/o/logout?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: 'http://evil.test/' })}`);
    assert.equal(response.page?.status, 400);
  });
});

describeEachDatabase('OpenID provider: RP-initiated logout without asking', { ...IDP_ENV, IDP_OIDC_RP_INITIATED_LOGOUT_ASKS_FOR_OP_LOGOUT: 'false' }, ({ server }) => {
  it('signs the hinted user out at once (a self-submitting form)', async () => {
    const { api, idToken } = await signedIn(server());
    const page = await navigate(server(), api, logoutUrl(idToken));
    assert.match(page.page!.headers.get('content-security-policy') ?? '', /script-src 'sha256-/);
    const action = /<form method="post" action="([^"]+)"/.exec(page.page!.html)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.page!.html)![1]!;
    assert.match(page.page!.html, /name="logout" value="yes"/);
    const done = await navigate(server(), api, action.replaceAll('&amp;', '&'), { method: 'POST', form: { xsrf, logout: 'yes' } });
    assert.equal(done.url.toString(), `${LOGGED_OUT}?state=bye`);
    assert.equal((await api.get('/auth/session')).status, 401);
  });
});
