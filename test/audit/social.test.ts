import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, it } from 'node:test';
import { describeEachDatabase } from '../support/server.js';
import { startIdp } from '../support/oidc-provider.js';
import { startGitHub } from '../support/github-standin.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { idTokenClaims, oidcApp, providersEnv, tokenLogin } from '../support/social.js';
import { tracedClient, UserTrail } from './support.js';

// Social logins' events, through the token flow against a real OpenID
// provider's keys (and GitHub's stand-in, which lists several addresses): a
// provider signup, connecting and disconnecting, and an account taken over
// by an address its owner never verified.

const idp = await startIdp();
after(() => idp.close());
const github = await startGitHub();
after(() => github.close());
github.addClient('audit-gh', 'audit-gh-secret');
let nextGitHubId = 5000;

const CLIENT = 'audit-client';
const ENV = providersEnv(
  {
    openid_connect: { APPS: [oidcApp(idp, { id: 'idp', clientId: CLIENT })] },
    github: { GITHUB_URL: github.url, APP: { client_id: 'audit-gh', secret: 'audit-gh-secret' } },
  },
  {
    ACCOUNT_EMAIL_VERIFICATION: 'none',
    SOCIALACCOUNT_EMAIL_AUTHENTICATION: 'true',
    SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT: 'true',
    TRUSTED_PROXY_COUNT: '1',
  },
);
const sub = () => `audit-${randomUUID()}`;

describeEachDatabase('audit events of social login', ENV, ({ server }) => {
  const token = (claims: Record<string, unknown>) => idp.sign(idTokenClaims(idp, server(), CLIENT, claims));

  it('records a provider signup, a connection and a disconnection', async () => {
    const client = await tracedClient(server(), 'app');
    const first = sub();
    const email = uniqueEmail('social');
    const signup = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: first, email, email_verified: true }) });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const trail = new UserTrail(server(), signup.body.data.user.id);
    await trail.expect(
      server().clock.now(),
      { type: 'signup', from: client, detail: { method: 'social', provider: 'idp', email } },
      { type: 'login.succeeded', from: client, detail: { method: 'social', provider: 'idp' } },
    );

    const second = sub();
    assert.equal((await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: second }) }, 'connect')).status, 200);
    // Connecting what is connected already changes nothing.
    assert.equal((await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: second }) }, 'connect')).status, 200);
    await trail.expect(server().clock.now(), { type: 'social.connected', from: client, detail: { provider: 'idp' } });

    const removed = await client.delete('/account/providers', { provider: 'idp', account: first });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    await trail.expect(server().clock.now(), { type: 'social.disconnected', from: client, detail: { provider: 'idp' } });
  });

  it("records the password wiped when a provider's verified address logs in to an account that never verified it", async () => {
    const owner = await tracedClient(server(), 'app');
    const email = uniqueEmail('squatted');
    const signup = await owner.post('/auth/signup', { email, password: PASSWORD });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const trail = new UserTrail(server(), signup.body.data.user.id);
    await trail.skip();

    const client = await tracedClient(server(), 'browser');
    const response = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: sub(), email, email_verified: true }) });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.data.user.has_usable_password, false);
    await trail.expect(
      server().clock.now(),
      { type: 'password.changed', from: client, detail: { method: 'social', provider: 'idp', email, reason: 'unverified_email' } },
      { type: 'social.connected', from: client, detail: { provider: 'idp', email } },
      { type: 'login.succeeded', from: client, detail: { method: 'social', provider: 'idp' } },
    );
    assert.equal((await owner.get('/auth/session')).status, 410, "the owner's session ended with the password");
  });

  it('regression: records every address a provider signup stores, not only the first (issue 22)', async () => {
    const [primary, other, unverified, taken] = ['gh-primary', 'gh-other', 'gh-unverified', 'gh-taken'].map((name) => uniqueEmail(name));
    const owner = await tracedClient(server(), 'app');
    assert.equal((await owner.post('/auth/signup', { email: taken, password: PASSWORD })).status, 200);
    const id = nextGitHubId++;
    const emails = [
      { email: primary!, primary: true, verified: true },
      { email: other!, primary: false, verified: true },
      { email: unverified!, primary: false, verified: false },
      // Another account's address (unverified, so it opens no account) stays theirs: no event here.
      { email: taken!, primary: false, verified: false },
    ];
    github.addUser({ id, login: `audit${id}`, name: null, email: primary!, emails });

    const client = await tracedClient(server(), 'app');
    const signup = await tokenLogin(client, 'github', { client_id: 'audit-gh', access_token: github.issueToken(`audit${id}`, 'audit-gh') });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    assert.deepEqual((await client.get('/account/email')).body.data, [
      { email: primary, primary: true, verified: true },
      { email: other, primary: false, verified: true },
      { email: unverified, primary: false, verified: false },
    ]);
    const added = (email: string) => ({ email, method: 'social', provider: 'github' });
    await new UserTrail(server(), signup.body.data.user.id).expect(
      server().clock.now(),
      { type: 'signup', from: client, detail: { method: 'social', provider: 'github', email: primary } },
      { type: 'email.added', from: client, detail: added(other!) },
      { type: 'email.verified', from: client, detail: added(other!) },
      { type: 'email.added', from: client, detail: added(unverified!) },
      { type: 'login.succeeded', from: client, detail: { method: 'social', provider: 'github' } },
    );
  });
});
