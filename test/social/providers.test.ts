import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describeEachDatabase } from '../support/server.js';
import { startIdp } from '../support/oidc-provider.js';
import { CONSUMERS_TENANT, startDiscord, startGitLab, startMicrosoft, type ProviderStandin } from '../support/more-standins.js';
import { assertError, flowIds, readyClient, uniqueEmail } from '../support/accounts.js';
import { approvedCallback, idTokenClaims, navigate, providersEnv, tokenLogin } from '../support/social.js';

// The other provider types, each against a stand-in: Google (an OpenID
// provider at server_url), Microsoft (tenant endpoints, Graph, tenant
// issuers in the token flow), GitLab and Discord (OAuth 2 with their APIs,
// access tokens checked to be the app's). Both flows for each.

const google = await startIdp();
const microsoft = await startMicrosoft();
const gitlab = await startGitLab();
const discord = await startDiscord();
after(async () => {
  await Promise.all([google.close(), microsoft.close(), gitlab.close(), discord.close()]);
});
microsoft.addClient('ms-client', 'ms-secret');
microsoft.addClient('ms-work', 'ms-work-secret');
gitlab.addClient('gl-client', 'gl-secret');
gitlab.addClient('gl-other', 'gl-other-secret');
discord.addClient('dc-client', 'dc-secret');
discord.addClient('dc-other', 'dc-other-secret');

const msSettings = { login_url: microsoft.url, graph_url: microsoft.url };
const PROVIDERS = {
  google: {
    APPS: [
      { client_id: 'google-client', secret: 'google-secret', settings: { server_url: google.issuer } },
      // A mobile app's client id: its ID tokens are accepted, the app is not listed.
      { client_id: 'google-android', secret: '', settings: { server_url: google.issuer, hidden: true } },
    ],
  },
  microsoft: {
    APPS: [
      { client_id: 'ms-client', secret: 'ms-secret', settings: msSettings },
      { provider_id: 'microsoft-work', name: 'Microsoft (work)', client_id: 'ms-work', secret: 'ms-work-secret', settings: { ...msSettings, tenant: 'organizations' } },
    ],
  },
  gitlab: { APP: { client_id: 'gl-client', secret: 'gl-secret', settings: { gitlab_url: gitlab.url } } },
  discord: { APP: { client_id: 'dc-client', secret: 'dc-secret', settings: { api_url: `${discord.url}/api` } } },
};
const CALLBACK_URL = 'http://localhost:3000/account/provider/callback';
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';

describeEachDatabase('Google, Microsoft, GitLab and Discord', providersEnv(PROVIDERS, { ACCOUNT_EMAIL_VERIFICATION: 'optional' }), ({ server }) => {
  before(() => google.addClient({ client_id: 'google-client', client_secret: 'google-secret', redirect_uris: [`${server().baseUrl}/accounts/google/login/callback/`] }));

  /** The redirect flow through a stand-in that approves for `user`; answers the session afterwards. */
  async function viaRedirect(provider: string, approve: (state: string) => void) {
    const browser = await readyClient(server(), 'browser');
    const { authorization, callback } = await approvedCallback(server(), browser, { provider, callback_url: CALLBACK_URL }, approve);
    const landing = await navigate(browser, callback);
    assert.equal(landing.location, CALLBACK_URL);
    return { browser, authorization, session: await browser.get('/auth/session') };
  }

  it('lists each app in /config under its own id, sorted by name', async () => {
    const providers = (await server().client('app').get('/config')).body.data.socialaccount.providers;
    assert.deepEqual(
      providers.map((p: any) => [p.id, p.name, p.client_id, 'openid_configuration_url' in p]),
      [
        ['discord', 'Discord', 'dc-client', false],
        ['gitlab', 'GitLab', 'gl-client', false],
        ['google', 'Google', 'google-client', false],
        ['microsoft', 'Microsoft', 'ms-client', false],
        ['microsoft-work', 'Microsoft (work)', 'ms-work', false],
      ],
    );
  });

  it('Google: both flows, the ID token\'s claims kept as the account\'s data', async () => {
    const sub = randomUUID();
    const email = uniqueEmail('google');
    google.addAccount(sub, { email, email_verified: true, given_name: 'Grace', family_name: 'Hopper' });
    const { browser, authorization, session } = await viaRedirect('google', (state) => google.decide(state, { sub }));
    assert.equal(authorization.searchParams.get('scope'), 'openid profile email');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.deepEqual((await browser.get('/account/providers')).body.data.map((a: any) => [a.uid, a.display]), [[sub, email]]);

    for (const clientId of ['google-client', 'google-android']) {
      const token = await google.sign(idTokenClaims(google, server(), clientId, { sub, email, email_verified: true }));
      const again = await tokenLogin(await readyClient(server(), 'app'), 'google', { client_id: clientId, id_token: token });
      assert.equal(again.status, 200, `${clientId}: ${JSON.stringify(again.body)}`);
      assert.equal(again.body.data.user.id, session.body.data.user.id);
    }
    const crossed = await google.sign(idTokenClaims(google, server(), 'google-client', { sub }));
    assertError(await tokenLogin(await readyClient(server(), 'app'), 'google', { client_id: 'google-android', id_token: crossed }), 400, 'invalid_token', 'token');
  });

  it('Microsoft: the Graph user in the redirect flow, tenant issuers in the token flow', async () => {
    const id = randomUUID();
    const mail = uniqueEmail('ms');
    microsoft.addUser(id, { id, mail, displayName: 'Alan Turing', givenName: 'Alan', surname: 'Turing', userPrincipalName: mail });
    const { authorization, session } = await viaRedirect('microsoft', (state) => microsoft.decide(state, id));
    assert.equal(authorization.pathname, '/common/oauth2/v2.0/authorize');
    assert.equal(authorization.searchParams.get('scope'), 'User.Read');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [['microsoft', id]]);

    const now = Math.floor(server().clock.now() / 1000);
    const claims = (aud: string, tid: string, issuerTenant = tid) => ({ iss: `${microsoft.url}/${issuerTenant}/v2.0`, aud, tid, oid: id, sub: 'pairwise-sub', iat: now, exp: now + 600 });
    const client = await readyClient(server(), 'app');
    // The same person: oid is Graph's id for work and school accounts.
    const work = await tokenLogin(client, 'microsoft', { client_id: 'ms-client', id_token: await microsoft.standin.signIdToken(claims('ms-client', TENANT)) });
    assert.equal(work.status, 200, JSON.stringify(work.body));
    assert.equal(work.body.data.user.id, session.body.data.user.id);
    const mismatch = await microsoft.standin.signIdToken(claims('ms-client', TENANT, CONSUMERS_TENANT));
    assertError(await tokenLogin(client, 'microsoft', { client_id: 'ms-client', id_token: mismatch }), 400, 'invalid_token', 'token');
    const noTenant = await microsoft.standin.signIdToken({ ...claims('ms-client', TENANT), tid: 'common' });
    assertError(await tokenLogin(client, 'microsoft', { client_id: 'ms-client', id_token: noTenant }), 400, 'invalid_token', 'token');
    // A work-only app refuses personal accounts.
    const personal = await microsoft.standin.signIdToken(claims('ms-work', CONSUMERS_TENANT));
    assertError(await tokenLogin(client, 'microsoft-work', { client_id: 'ms-work', id_token: personal }), 400, 'invalid_token', 'token');
    // A work account passes; being new to this app and without an address, it is asked for one.
    const accepted = await tokenLogin(client, 'microsoft-work', { client_id: 'ms-work', id_token: await microsoft.standin.signIdToken(claims('ms-work', TENANT)) });
    assert.equal(accepted.status, 401);
    assert.ok(flowIds(accepted.body).includes('provider_signup!'));
  });

  it('GitLab: both flows, an access token only when GitLab names this app', async () => {
    const id = Math.floor(Math.random() * 1e9);
    gitlab.addUser(String(id), { id, username: `gl${id}`, name: 'Linus', email: uniqueEmail('gl') });
    const { browser, session } = await viaRedirect('gitlab', (state) => gitlab.decide(state, String(id)));
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.deepEqual((await browser.get('/account/providers')).body.data.map((a: any) => a.display), [`gl${id}`]);
    const client = await readyClient(server(), 'app');
    assert.equal((await tokenLogin(client, 'gitlab', { client_id: 'gl-client', access_token: gitlab.issueToken(String(id), 'gl-client') })).status, 200);
    assertError(await tokenLogin(client, 'gitlab', { client_id: 'gl-client', access_token: gitlab.issueToken(String(id), 'gl-other') }), 400, 'invalid_token', 'token');
  });

  it('Discord: both flows, its address only when verified, its display names', async () => {
    const id = String(Math.floor(Math.random() * 1e12));
    const email = uniqueEmail('dc');
    discord.addUser(id, { id, username: `dc${id}`, global_name: 'Display Name', discriminator: '0', email, verified: true });
    const { browser, authorization, session } = await viaRedirect('discord', (state) => discord.decide(state, id));
    assert.equal(authorization.searchParams.get('scope'), 'email identify');
    assert.equal(session.body.data.user.email, email);
    assert.deepEqual((await browser.get('/account/email')).body.data, [{ email, primary: true, verified: true }]);
    assert.deepEqual((await browser.get('/account/providers')).body.data.map((a: any) => a.display), ['Display Name']);
    const client = await readyClient(server(), 'app');
    assert.equal((await tokenLogin(client, 'discord', { client_id: 'dc-client', access_token: discord.issueToken(id, 'dc-client') })).status, 200);
    assertError(await tokenLogin(client, 'discord', { client_id: 'dc-client', access_token: discord.issueToken(id, 'dc-other') }), 400, 'invalid_token', 'token');
  });
});
