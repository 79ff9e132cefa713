import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { startOAuth1Standin } from '../support/oauth1-standin.js';
import { startStandin } from '../support/standin.js';
import { assertError, readyClient, signedUp, uniqueEmail } from '../support/accounts.js';
import { navigate, providersEnv, startRedirect, throughProvider, tokenLogin } from '../support/social.js';
import type { ApiClient } from '../support/client.js';
import { hashSecret } from '../../src/security/secrets.js';
import { flickrPeopleGetInfo, flickrTestLogin, xUserJson } from './fixtures/oauth1.js';

// OAuth 1.0a through stand-ins for X and Flickr that check every signature
// (HMAC-SHA1 over the request as they received it, with the consumer secret
// and the token secret): the request token, the authorize page, the access
// token for the verifier, the signed profile calls, and each failure landing
// on callback_url with the reference's error.

const consumers = new Map([
  ['x-consumer', 'x-consumer-secret'],
  ['flickr-consumer', 'flickr-consumer-secret'],
]);
const x = await startOAuth1Standin({
  requestTokenPath: '/oauth/request_token',
  authorizePath: '/oauth/authenticate',
  accessTokenPath: '/oauth/access_token',
  consumers,
  accessFields: (user) => ({ user_id: user.split(':')[0]!, screen_name: user.split(':')[1]! }),
});
const flickr = await startOAuth1Standin({
  requestTokenPath: '/services/oauth/request_token',
  authorizePath: '/services/oauth/authorize',
  accessTokenPath: '/services/oauth/access_token',
  consumers,
});
// Pocket, as its authentication docs describe it: JSON posts with X-Accept, a request code, the authorize page, the code redeemed once.
const pocket = await startStandin();
const pocketCodes = new Map<string, { redirectUri: string; username?: string }>();
const pocketDecisions = new Map<string, string>();
pocket.routes.set('POST /v3/oauth/request', ({ headers, body }) => {
  if (headers['x-accept'] !== 'application/json' || body.consumer_key !== 'pocket-consumer' || !body.redirect_uri) return { status: 403, json: {} };
  const code = `dcba4321-dcba-4321-dcba-${String(pocketCodes.size).padStart(12, '0')}`;
  pocketCodes.set(code, { redirectUri: body.redirect_uri });
  return { json: { code, state: null } };
});
pocket.routes.set('GET /auth/authorize', ({ url }) => {
  const pending = pocketCodes.get(url.searchParams.get('request_token') ?? '');
  if (!pending || pending.redirectUri !== url.searchParams.get('redirect_uri')) return { status: 400, html: 'Bad request' };
  pending.username = pocketDecisions.get(new URL(pending.redirectUri).searchParams.get('state') ?? '');
  return { redirect: pending.redirectUri };
});
pocket.routes.set('POST /v3/oauth/authorize', ({ body }) => {
  const pending = pocketCodes.get(body.code ?? '');
  pocketCodes.delete(body.code ?? '');
  if (body.consumer_key !== 'pocket-consumer' || !pending?.username) return { status: 403, json: {} };
  return { json: { access_token: '5678defg-5678-defg-5678-defg56', username: pending.username } };
});
after(() => Promise.all([x.close(), flickr.close(), pocket.close()]));

// X's users are keyed `id:screen_name`; ids beyond 2^53, as X's are.
const xUsers = new Map<string, { email: string }>();
x.signedRoute('GET', '/1.1/account/verify_credentials.json', (user, request) => {
  const [id, screenName] = user.split(':') as [string, string];
  // The address only when asked for (and the app allowed it at X); sent as text, the big id as X writes it.
  return { html: xUserJson(id, screenName, request.url.searchParams.get('include_email') === 'true' ? xUsers.get(user)!.email : null) };
});
flickr.signedRoute('GET', '/services/rest', (user, { url }) => {
  const q = url.searchParams;
  if (q.get('format') !== 'json' || q.get('nojsoncallback') !== '1') return { status: 400, json: { stat: 'fail' } };
  if (q.get('method') === 'flickr.test.login') return { json: flickrTestLogin(user, 'bees') };
  if (q.get('method') === 'flickr.people.getInfo' && q.get('user_id') === user) return { json: flickrPeopleGetInfo(user, 'bees') };
  return { json: { stat: 'fail', code: 1, message: 'User not found' } };
});

const CALLBACK_URL = 'http://localhost:3000/account/provider/callback';
let next = 1;

function xUser(): { key: string; id: string; screenName: string; email: string } {
  const id = `14${String(Date.now()).slice(-9)}${String(next++).padStart(8, '0')}`;
  const screenName = `dev${next}`;
  const key = `${id}:${screenName}`;
  const email = uniqueEmail('x');
  xUsers.set(key, { email });
  return { key, id, screenName, email };
}

describeEachDatabase(
  'OAuth 1.0a providers',
  providersEnv({
    twitter: { APP: { client_id: 'x-consumer', secret: 'x-consumer-secret', settings: { base_url: x.url } } },
    flickr: { APP: { client_id: 'flickr-consumer', secret: 'flickr-consumer-secret', settings: { base_url: flickr.url } } },
    pocket: { APP: { client_id: 'pocket-consumer', settings: { base_url: pocket.url } } },
    // Not offered by the reference's headless API: accepted, and not listed.
    openid: { SERVERS: [{ id: 'yahoo', name: 'Yahoo', openid_url: 'http://me.yahoo.com' }] },
  }, { SOCIALACCOUNT_STORE_TOKENS: 'true' }),
  ({ server }) => {
    /** Starts the redirect flow and answers the authorize URL and its request token. */
    async function start(browser: ApiClient, provider: string, process = 'login'): Promise<URL> {
      const hop = await startRedirect(server(), browser, { provider, callback_url: CALLBACK_URL, process });
      assert.equal(hop.status, 302);
      return new URL(hop.location!);
    }
    async function loginAt(standin: typeof x, provider: string, user: string | 'deny', browser?: ApiClient, process = 'login') {
      browser ??= await readyClient(server(), 'browser');
      const authorize = await start(browser, provider, process);
      standin.decide(authorize.searchParams.get('oauth_token')!, user);
      const callback = await throughProvider(authorize.href, `${server().baseUrl}/accounts/`);
      return { browser, authorize, callback, landing: (await navigate(browser, callback)).location };
    }

    it('logs in with X: signed request token, authenticate page, access token for the verifier, verify_credentials', async () => {
      const user = xUser();
      const { browser, authorize, callback, landing } = await loginAt(x, 'twitter', user.key);
      assert.equal(authorize.origin + authorize.pathname, `${x.url}/oauth/authenticate`);
      assert.equal(authorize.searchParams.get('oauth_callback'), `${server().baseUrl}/accounts/twitter/login/callback/`);
      assert.ok(callback.startsWith(`${server().baseUrl}/accounts/twitter/login/callback/?oauth_token=`));
      assert.equal(landing, CALLBACK_URL);
      assert.deepEqual(x.refused, [], 'every signature held');

      const session = await browser.get('/auth/session');
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [['twitter', user.id]]);
      assert.deepEqual((await browser.get('/account/email')).body.data, [{ email: user.email, primary: true, verified: false }]);
      const accounts = (await browser.get('/account/providers')).body.data;
      assert.deepEqual(accounts.map((a: any) => [a.provider.id, a.provider.name, a.uid, a.display]), [['twitter', 'X', user.id, user.screenName]]);
      assert.equal(accounts[0].provider.client_id, undefined, 'OAuth 1.0a apps show no client_id');

      // extra_data is X's user object; the token pair is kept sealed.
      const { db, atRest } = server().app.deps;
      const account = await db.selectFrom('social_accounts').select(['id', 'extra_data']).where('provider', '=', 'twitter').where('uid', '=', user.id).executeTakeFirstOrThrow();
      const extra = typeof account.extra_data === 'string' ? JSON.parse(account.extra_data) : account.extra_data;
      assert.match(String(account.extra_data), new RegExp(`"id":${user.id},`), 'X\'s id past 2^53 kept digit for digit');
      assert.equal(extra.id_str, user.id);
      assert.equal(extra.screen_name, user.screenName);
      assert.equal(extra.email, user.email);
      assert.equal(extra.profile_image_url_https, 'https://pbs.twimg.com/profile_images/1283786620521652229/lEODkLTh_normal.jpg');
      const tokens = await db.selectFrom('social_tokens').select(['token', 'token_secret']).where('social_account_id', '=', account.id).executeTakeFirstOrThrow();
      assert.match(atRest.open(tokens.token, `socialtoken:${account.id}:token`)!, /^\d+-[0-9a-f]{24}$/);
      assert.match(atRest.open(tokens.token_secret!, `socialtoken:${account.id}:token_secret`)!, /^[0-9a-f]{32}$/);

      const again = await loginAt(x, 'twitter', user.key);
      assert.equal(again.landing, CALLBACK_URL);
      assert.equal((await again.browser.get('/auth/session')).body.data.user.id, session.body.data.user.id, 'the same X account, the same user');
    });

    it('keeps the request token\'s secret sealed with the flow, found again by the request token', async () => {
      const browser = await readyClient(server(), 'browser');
      const authorize = await start(browser, 'twitter');
      const requestToken = authorize.searchParams.get('oauth_token')!;
      const { db, atRest } = server().app.deps;
      const stored = await db.selectFrom('social_login_states').select(['secret', 'code_verifier']).where('state_hash', '=', hashSecret(requestToken)).executeTakeFirstOrThrow();
      assert.match(atRest.open(stored.secret!, `socialstate:${hashSecret(requestToken)}:secret`)!, /^[0-9a-f]{24}$/);
      assert.equal(authorize.searchParams.get('state'), null, 'OAuth 1.0a has no state parameter');
    });

    it('lands with error=cancelled when the user declines at X, and error=unknown for a forged verifier', async () => {
      assert.equal((await loginAt(x, 'twitter', 'deny')).landing, `${CALLBACK_URL}?error=cancelled&error_process=login`);

      const user = xUser();
      const browser = await readyClient(server(), 'browser');
      const authorize = await start(browser, 'twitter');
      x.decide(authorize.searchParams.get('oauth_token')!, user.key);
      const forged = new URL(await throughProvider(authorize.href, `${server().baseUrl}/accounts/`));
      forged.searchParams.set('oauth_verifier', 'guessed');
      assert.equal((await navigate(browser, forged.href)).location, `${CALLBACK_URL}?error=unknown&error_process=login`);
      assert.deepEqual(x.refused.splice(0), ['POST /oauth/access_token']);
      assert.equal((await browser.get('/auth/session')).status, 401);
    });

    it('refuses a callback in another browser, and a replayed one', async () => {
      const user = xUser();
      const { browser, callback, landing } = await loginAt(x, 'twitter', user.key);
      assert.equal(landing, CALLBACK_URL);
      const loginError = 'http://localhost:3000/account/provider/callback';
      assert.equal((await navigate(browser, callback)).location, `${loginError}?error=unknown&error_process=login`, 'replayed');
      const other = await readyClient(server(), 'browser');
      const authorize = await start(browser, 'twitter');
      x.decide(authorize.searchParams.get('oauth_token')!, user.key);
      const elsewhere = await throughProvider(authorize.href, `${server().baseUrl}/accounts/`);
      assert.equal((await navigate(other, elsewhere)).location, `${loginError}?error=unknown&error_process=login`, 'another browser');
    });

    it('connects an X account to the logged-in user', async () => {
      const browser = await readyClient(server(), 'browser');
      const { email } = await signedUp(browser);
      const userId = (await browser.get('/auth/session')).body.data.user.id;
      const user = xUser();
      assert.equal((await loginAt(x, 'twitter', user.key, browser, 'connect')).landing, CALLBACK_URL);
      assert.equal((await browser.get('/auth/session')).body.data.user.id, userId, 'still the same user');
      assert.deepEqual((await browser.get('/account/providers')).body.data.map((a: any) => [a.provider.id, a.uid]), [['twitter', user.id]]);
      assert.ok((await browser.get('/account/email')).body.data.some((e: any) => e.email === email));
    });

    it('lands with error=unknown when X refuses the signature of the request token call', async () => {
      consumers.set('x-consumer', 'rotated-at-x');
      try {
        const browser = await readyClient(server(), 'browser');
        const hop = await startRedirect(server(), browser, { provider: 'twitter', callback_url: CALLBACK_URL });
        assert.equal(hop.location, `${CALLBACK_URL}?error=unknown&error_process=login`);
        assert.deepEqual(x.refused.splice(0), ['POST /oauth/request_token']);
      } finally {
        consumers.set('x-consumer', 'x-consumer-secret');
      }
    });

    it('logs in with Flickr: perms=read, then flickr.test.login and flickr.people.getInfo, both signed', async () => {
      const nsid = `${next++}037949754@N01`;
      const { browser, authorize, landing } = await loginAt(flickr, 'flickr', nsid);
      assert.equal(authorize.origin + authorize.pathname, `${flickr.url}/services/oauth/authorize`);
      assert.equal(authorize.searchParams.get('perms'), 'read');
      assert.equal(landing, CALLBACK_URL);
      assert.deepEqual(flickr.refused, []);
      // Flickr gives no address: the signup waits for one.
      assert.ok((await browser.get('/auth/session')).body.data.flows.some((f: any) => f.id === 'provider_signup' && f.is_pending));
      const session = await browser.post('/auth/provider/signup', { email: uniqueEmail('flickr') });
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [['flickr', nsid]]);
      const accounts = (await browser.get('/account/providers')).body.data;
      assert.deepEqual(accounts.map((a: any) => [a.provider.id, a.display]), [['flickr', 'bees']]);
      const { db } = server().app.deps;
      const row = await db.selectFrom('social_accounts').select('extra_data').where('provider', '=', 'flickr').where('uid', '=', nsid).executeTakeFirstOrThrow();
      const extra = typeof row.extra_data === 'string' ? JSON.parse(row.extra_data) : row.extra_data;
      assert.deepEqual(extra, flickrPeopleGetInfo(nsid, 'bees'), 'extra_data is the people.getInfo answer');
    });

    it('logs in with Pocket: the request code redeemed at the callback, the username as a verified address', async () => {
      const username = uniqueEmail('pocket');
      const browser = await readyClient(server(), 'browser');
      const authorize = await start(browser, 'pocket');
      const redirectUri = new URL(authorize.searchParams.get('redirect_uri')!);
      assert.equal(redirectUri.origin + redirectUri.pathname, `${server().baseUrl}/accounts/pocket/login/callback/`);
      pocketDecisions.set(redirectUri.searchParams.get('state')!, username);
      const callback = await throughProvider(authorize.href, `${server().baseUrl}/accounts/`);
      assert.equal((await navigate(browser, callback)).location, CALLBACK_URL);
      const session = await browser.get('/auth/session');
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [['pocket', username]]);
      assert.deepEqual((await browser.get('/account/email')).body.data, [{ email: username, primary: true, verified: true }]);
      assert.equal((await navigate(browser, callback)).location, `${CALLBACK_URL}?error=unknown&error_process=login`, 'replayed');

      // Not approved at Pocket: the code does not redeem.
      const declined = await readyClient(server(), 'browser');
      const refused = await throughProvider((await start(declined, 'pocket')).href, `${server().baseUrl}/accounts/`);
      assert.equal((await navigate(declined, refused)).location, `${CALLBACK_URL}?error=unknown&error_process=login`);
    });

    it('lists them for browsers without client_id, and refuses them in the token flow', async () => {
      const browser = await readyClient(server(), 'browser');
      const listed = (await browser.get('/config')).body.data.socialaccount.providers;
      assert.deepEqual(listed, [
        { id: 'flickr', name: 'Flickr', flows: ['provider_redirect'] },
        { id: 'pocket', name: 'Pocket', flows: ['provider_redirect'] },
        { id: 'twitter', name: 'X', flows: ['provider_redirect'] },
      ]);
      const app = await readyClient(server(), 'app');
      assert.deepEqual((await app.get('/config')).body.data.socialaccount.providers, []);
      assertError(await tokenLogin(app, 'twitter', { client_id: 'x-consumer', access_token: 'a-token' }), 400, 'token_authentication_not_supported', 'provider');
    });
  },
);
