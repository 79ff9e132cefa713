import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSteam } from '../support/steam-standin.js';
import { readyClient, uniqueEmail } from '../support/accounts.js';
import { navigate, providersEnv, startRedirect, throughProvider } from '../support/social.js';
import type { ApiClient } from '../support/client.js';

// Steam over OpenID 2.0, against a stand-in for Steam Community's OpenID
// provider and the Web API: the checkid_setup redirect, the assertion
// believed only once Steam confirmed it (check_authentication), the player
// summary as extra_data, and forged or replayed assertions refused.

const API_KEY = 'steam-web-api-key';
const steam = await startSteam(API_KEY);
after(() => steam.close());

const CALLBACK_URL = 'http://localhost:3000/account/provider/callback';
let nextId = 76561197960435530n;

/** A player as GetPlayerSummaries documents one. */
function player(realname = 'Robin Walker') {
  const steamid = String(nextId++);
  const summary = {
    steamid,
    communityvisibilitystate: 3,
    profilestate: 1,
    personaname: `Robin${steamid.slice(-4)}`,
    profileurl: 'https://steamcommunity.com/id/robinwalker/',
    avatar: 'https://avatars.steamstatic.com/81b5478529dce13bf24b55ac42c1af7058aaf7a9.jpg',
    avatarmedium: 'https://avatars.steamstatic.com/81b5478529dce13bf24b55ac42c1af7058aaf7a9_medium.jpg',
    avatarfull: 'https://avatars.steamstatic.com/81b5478529dce13bf24b55ac42c1af7058aaf7a9_full.jpg',
    avatarhash: '81b5478529dce13bf24b55ac42c1af7058aaf7a9',
    personastate: 0,
    realname,
    primaryclanid: '103582791429521412',
    timecreated: 1063407589,
    personastateflags: 0,
    loccountrycode: 'US',
    locstatecode: 'WA',
    loccityid: 3961,
  };
  steam.addPlayer(summary);
  return summary;
}

let server: TestServer;
before(async () => {
  server = await startTestServer('sqlite', providersEnv({ steam: { APP: { secret: API_KEY, settings: { base_url: steam.url } } } }));
});
after(() => server.close());

/** The redirect flow up to Steam's answer: the checkid_setup URL and the callback Steam sends the browser to. */
async function throughSteam(decision: (state: string) => string | 'deny', browser?: ApiClient) {
  browser ??= await readyClient(server, 'browser');
  const hop = await startRedirect(server, browser, { provider: 'steam', callback_url: CALLBACK_URL });
  assert.equal(hop.status, 302);
  const checkid = new URL(hop.location!);
  const returnTo = new URL(checkid.searchParams.get('openid.return_to')!);
  steam.decide(returnTo.searchParams.get('state')!, decision(returnTo.searchParams.get('state')!));
  return { browser, checkid, callback: new URL(await throughProvider(checkid.href, `${server.baseUrl}/accounts/`)) };
}

it('logs in with Steam: checkid_setup, check_authentication, the player summary as extra_data', async () => {
  const robin = player();
  const checks = steam.checks.length;
  const { browser, checkid, callback } = await throughSteam(() => robin.steamid);
  assert.equal(checkid.origin + checkid.pathname, `${steam.url}/openid/login`);
  assert.equal(checkid.searchParams.get('openid.mode'), 'checkid_setup');
  assert.equal(checkid.searchParams.get('openid.realm'), `${server.baseUrl}/`);
  assert.equal(checkid.searchParams.get('openid.identity'), 'http://specs.openid.net/auth/2.0/identifier_select');
  assert.ok(checkid.searchParams.get('openid.return_to')!.startsWith(`${server.baseUrl}/accounts/steam/callback/?state=`));
  assert.equal((await navigate(browser, callback.href)).location, CALLBACK_URL);
  assert.deepEqual(steam.checks.slice(checks), [true], 'Steam confirmed the assertion');

  // Steam gives no address: the signup asks for one.
  const pending = await browser.get('/auth/provider/signup');
  assert.equal(pending.status, 200, JSON.stringify(pending.body));
  const done = await browser.post('/auth/provider/signup', { email: uniqueEmail('steam') });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.deepEqual(done.body.data.methods.map((m: any) => [m.provider, m.uid]), [['steam', robin.steamid]]);
  const accounts = (await browser.get('/account/providers')).body.data;
  assert.deepEqual(accounts.map((a: any) => [a.provider.id, a.provider.name, a.display, a.provider.client_id]), [['steam', 'Steam', robin.personaname, undefined]]);
  const row = await server.app.deps.db.selectFrom('social_accounts').select('extra_data').where('provider', '=', 'steam').where('uid', '=', robin.steamid).executeTakeFirstOrThrow();
  assert.deepEqual(typeof row.extra_data === 'string' ? JSON.parse(row.extra_data) : row.extra_data, robin);
});

it('refuses an assertion whose claimed id was changed: Steam does not confirm it', async () => {
  const robin = player();
  const victim = player();
  const { browser, callback } = await throughSteam(() => robin.steamid);
  for (const name of ['openid.claimed_id', 'openid.identity']) callback.searchParams.set(name, `https://steamcommunity.com/openid/id/${victim.steamid}`);
  const checks = steam.checks.length;
  assert.equal((await navigate(browser, callback.href)).location, `${CALLBACK_URL}?error=unknown&error_process=login`);
  assert.deepEqual(steam.checks.slice(checks), [false]);
  assert.equal((await browser.get('/auth/session')).status, 401);
});

it('refuses an assertion that leaves the claimed id unsigned, without asking Steam', async () => {
  const robin = player();
  const { browser, callback } = await throughSteam(() => robin.steamid);
  callback.searchParams.set('openid.signed', 'signed,op_endpoint,identity,return_to,response_nonce,assoc_handle');
  const checks = steam.checks.length;
  assert.equal((await navigate(browser, callback.href)).location, `${CALLBACK_URL}?error=unknown&error_process=login`);
  assert.equal(steam.checks.length, checks);
});

it('refuses an assertion made for another flow (return_to) and a replayed callback', async () => {
  const robin = player();
  const first = await throughSteam(() => robin.steamid);
  const second = await throughSteam(() => robin.steamid, first.browser);
  // The second flow's state with the first flow's assertion: its signed return_to names the first.
  const mixed = new URL(first.callback);
  mixed.searchParams.set('state', second.callback.searchParams.get('state')!);
  assert.equal((await navigate(first.browser, mixed.href)).location, `${CALLBACK_URL}?error=unknown&error_process=login`);
  assert.equal((await navigate(first.browser, first.callback.href)).location, CALLBACK_URL);
  assert.equal((await navigate(first.browser, first.callback.href)).location, `${CALLBACK_URL}?error=unknown&error_process=login`, 'replayed');
});

it('lands with error=cancelled when the user cancels at Steam', async () => {
  const { browser, callback } = await throughSteam(() => 'deny');
  assert.equal(callback.searchParams.get('openid.mode'), 'cancel');
  assert.equal((await navigate(browser, callback.href)).location, `${CALLBACK_URL}?error=cancelled&error_process=login`);
});
