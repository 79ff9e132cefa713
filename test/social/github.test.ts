import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { startGitHub, type GitHubUser } from '../support/github-standin.js';
import { assertError, flowIds, readyClient, uniqueEmail } from '../support/accounts.js';
import { approvedCallback, navigate, providersEnv, tokenLogin } from '../support/social.js';

// GitHub, through a stand-in on loopback (GITHUB_URL): OAuth 2 without an
// ID token, addresses and their verified flags from /user/emails, and the
// token flow with an access token that must belong to this app.

const github = await startGitHub();
after(() => github.close());
github.addClient('gh-client', 'gh-secret');
github.addClient('other-app', 'other-secret');

const CALLBACK_URL = 'http://localhost:3000/account/provider/callback';
let nextId = 1000;

function gitHubUser(emails: GitHubUser['emails']): GitHubUser {
  const id = nextId++;
  const user = { id, login: `octo${id}`, name: `Octo ${id}`, email: emails.find((e) => e.primary)?.email ?? null, emails };
  github.addUser(user);
  return user;
}

describeEachDatabase(
  'GitHub',
  providersEnv({ github: { GITHUB_URL: github.url, APP: { client_id: 'gh-client', secret: 'gh-secret' } } }, { ACCOUNT_EMAIL_VERIFICATION: 'mandatory' }),
  ({ server }) => {
    /** The redirect flow through GitHub for `login`; `visit` false stops before the callback. */
    async function redirect(login: string | 'deny', visit = true) {
      const browser = await readyClient(server(), 'browser');
      const { authorization, callback } = await approvedCallback(server(), browser, { provider: 'github', callback_url: CALLBACK_URL }, (state) => github.decide(state, login));
      assert.equal(authorization.origin + authorization.pathname, `${github.url}/login/oauth/authorize`);
      assert.ok(callback.startsWith(`${server().baseUrl}/accounts/github/login/callback/?`));
      return { browser, authorization, callback, landing: visit ? await navigate(browser, callback) : null };
    }

    it('logs in with the verified addresses GitHub reports', async () => {
      const primary = uniqueEmail('gh');
      const secondary = uniqueEmail('gh-old');
      const user = gitHubUser([
        { email: primary, primary: true, verified: true },
        { email: secondary, primary: false, verified: false },
      ]);
      const { browser, authorization, landing } = await redirect(user.login);
      assert.equal(authorization.searchParams.get('scope'), 'user:email');
      assert.equal(authorization.searchParams.get('redirect_uri'), `${server().baseUrl}/accounts/github/login/callback/`);
      assert.ok(authorization.searchParams.get('code_challenge'));
      assert.equal(authorization.searchParams.get('nonce'), null, 'no ID token, so no nonce');
      assert.equal(landing!.location, CALLBACK_URL);

      const session = await browser.get('/auth/session');
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [['github', String(user.id)]]);
      assert.deepEqual((await browser.get('/account/email')).body.data, [
        { email: primary, primary: true, verified: true },
        { email: secondary, primary: false, verified: false },
      ]);
      const accounts = (await browser.get('/account/providers')).body.data;
      assert.deepEqual(accounts.map((a: any) => [a.provider.id, a.uid, a.display]), [['github', String(user.id), user.login]]);
      assert.deepEqual(accounts[0].provider.flows, ['provider_redirect', 'provider_token']);
    });

    it('holds an address GitHub has not verified for verification here', async () => {
      const user = gitHubUser([{ email: uniqueEmail('gh-unverified'), primary: true, verified: false }]);
      const { browser, landing } = await redirect(user.login);
      assert.equal(landing!.location, CALLBACK_URL);
      const session = await browser.get('/auth/session');
      assert.equal(session.status, 401);
      assert.ok(flowIds(session.body).includes('verify_email!'));
    });

    it('lands with error=unknown when GitHub refuses the code, and error=cancelled when the user declines', async () => {
      const user = gitHubUser([{ email: uniqueEmail('gh-code'), primary: true, verified: true }]);
      const { browser, callback } = await redirect(user.login, false);
      const forged = new URL(callback);
      forged.searchParams.set('code', 'not-a-code');
      assert.equal((await navigate(browser, forged.href)).location, `${CALLBACK_URL}?error=unknown&error_process=login`);
      assert.equal((await redirect('deny')).landing!.location, `${CALLBACK_URL}?error=cancelled&error_process=login`);
    });

    it('takes an access token in the token flow only when GitHub says it is this app\'s', async () => {
      const user = gitHubUser([{ email: uniqueEmail('gh-token'), primary: true, verified: true }]);
      for (const kind of ['app', 'browser'] as const) {
        const client = await readyClient(server(), kind);
        const own = await tokenLogin(client, 'github', { client_id: 'gh-client', access_token: github.issueToken(user.login, 'gh-client') });
        assert.equal(own.status, 200, JSON.stringify(own.body));
        assert.equal(own.body.data.methods[0].uid, String(user.id));
      }
      const client = await readyClient(server(), 'app');
      // A token the user gave another app must not log them in here.
      assertError(await tokenLogin(client, 'github', { client_id: 'gh-client', access_token: github.issueToken(user.login, 'other-app') }), 400, 'invalid_token', 'token');
      assertError(await tokenLogin(client, 'github', { client_id: 'gh-client', access_token: 'made-up' }), 400, 'invalid_token', 'token');
      assertError(await tokenLogin(client, 'github', { client_id: 'gh-client', id_token: 'a.b.c' }), 400, 'invalid_token', 'token');
    });
  },
);
