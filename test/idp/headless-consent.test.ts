import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import { readyClient } from '../support/accounts.js';
import { IDP_ENV, REDIRECT_URI, loggedInBrowser, navigate, registerClient, relyingParty } from './support.js';

// A SPA with its own consent page (HEADLESS_FRONTEND_URLS.idp_oidc_consent):
// the provider sends the browser there with the interaction's uid, and the
// SPA reads and answers the request over the browser API.

const ENV = { ...IDP_ENV, HEADLESS_FRONTEND_URLS: JSON.stringify({ idp_oidc_consent: 'http://spa.test/consent' }) };

describeEachDatabase('OpenID provider: consent through the browser API', ENV, ({ server }) => {
  async function toConsent() {
    const client = await registerClient(server(), { name: 'Notes' });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
    const landed = await navigate(server(), api, url);
    assert.equal(landed.url.origin + landed.url.pathname, 'http://spa.test/consent');
    return { rp, api, verifier, uid: landed.url.searchParams.get('uid')!, client };
  }

  it('reads the request, grants it, and the browser returns to the client with a code', async () => {
    const { rp, api, verifier, uid, client } = await toConsent();
    const read = await api.get(`/idp/oidc/consent/${uid}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, { uid, client: { id: client.id, name: 'Notes' }, scopes: ['openid', 'email'] });

    // Nobody else's: another user, or no user.
    const other = await loggedInBrowser(server());
    assert.equal((await other.api.get(`/idp/oidc/consent/${uid}`)).status, 404);
    assert.equal((await (await readyClient(server(), 'browser')).get(`/idp/oidc/consent/${uid}`)).status, 401);
    // The CSRF header is required, as for every state change.
    assert.equal((await api.post(`/idp/oidc/consent/${uid}`, { action: 'allow' }, { 'x-csrftoken': 'forged' })).status, 403);

    const answered = await api.post(`/idp/oidc/consent/${uid}`, { action: 'allow' });
    assert.equal(answered.status, 200);
    const back = await navigate(server(), api, answered.body.data.location);
    const tokens = await oidc.authorizationCodeGrant(rp, back.url, { pkceCodeVerifier: verifier, expectedState: 'st' });
    assert.ok(tokens.id_token);
  });

  it('a denial sends access_denied to the client', async () => {
    const { api, uid } = await toConsent();
    const answered = await api.post(`/idp/oidc/consent/${uid}`, { action: 'deny' });
    const back = await navigate(server(), api, answered.body.data.location);
    assert.equal(back.url.searchParams.get('error'), 'access_denied');
    assert.equal((await api.get(`/idp/oidc/consent/${uid}`)).status, 404);
  });
});
