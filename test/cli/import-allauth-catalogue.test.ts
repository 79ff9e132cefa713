import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '../support/server.js';
import { createMigratedDatabase, type TestDatabase } from '../support/databases.js';
import { readyClient } from '../support/accounts.js';
import { navigate, providersEnv, startRedirect, throughProvider } from '../support/social.js';
import { startCatalogueStandin, type Fixture } from '../support/catalogue-standin.js';
import { startOAuth1Standin } from '../support/oauth1-standin.js';
import { startSteam } from '../support/steam-standin.js';
import { xUserJson } from '../social/fixtures/oauth1.js';
import { allauthCopy, cliJson, sqlTime, type AllauthCopy } from './support.js';

// A django-allauth site with the catalogue's providers configured (Facebook,
// LinkedIn, Slack, Okta, Twitch, Spotify, Drip, X over OAuth 1.0a, Steam): its
// apps and social accounts in the reference's rows and extra_data shapes.
// `headless-auth import allauth` brings them over and prints the apps as
// SOCIALACCOUNT_PROVIDERS; a server started with those settings (plus what
// the site's settings.py held at the provider level, Okta's base URL) lets
// each person log in through the provider as before: the provider's uid
// finds the imported account, no new user is made. X (OAuth 1.0a) and
// Steam (OpenID 2.0) log in through their stand-ins the same way. Drip's
// uid in the reference is Python's per-process hash() of the address, which
// nothing finds again: the import keys the account by the address instead.

const fixture = (id: string): Fixture => JSON.parse(readFileSync(new URL(`../social/fixtures/${id}.json`, import.meta.url), 'utf8')) as Fixture;
const OAUTH2 = ['facebook', 'linkedin_oauth2', 'slack', 'okta', 'twitch', 'spotify', 'drip'].map(fixture);
// Who had which provider on the source site (auth_user ids of the allauth-65 fixture).
const OWNERS: Record<string, { userId: number; username: string }> = {
  facebook: { userId: 1, username: 'alice' },
  linkedin_oauth2: { userId: 2, username: 'bob' },
  slack: { userId: 3, username: 'carol' },
  okta: { userId: 4, username: 'dave' },
  twitch: { userId: 7, username: 'grace' },
  drip: { userId: 13, username: 'root' },
  spotify: { userId: 9, username: 'ivan' },
  twitter: { userId: 10, username: 'judy' },
  steam: { userId: 11, username: 'kim' },
};
const X_ID = '1443489211209117697';
const STEAM_ID = '76561197960435530';
/** What the reference stored as a Drip uid: str(hash(email)) in the process that made the account. */
const DRIP_HASH_UID = '-3528911260930417113';
const CALLBACK_URL = 'http://localhost:3000/account/provider/callback';

const sql = (value: unknown) => `'${(typeof value === 'string' ? value : JSON.stringify(value)).replaceAll("'", "''")}'`;
/** extra_data as the reference stored it: the documented profile answer, or the user inside it (for Slack and Okta, what the fixture expects). */
const storedExtra = (f: Fixture) => {
  const expected = f.expect.extra_data as { $response?: number; unwrap?: string };
  if (!(expected && typeof expected === 'object' && expected.$response !== undefined)) return expected;
  let value: any = f.calls[expected.$response]!.response;
  for (const key of expected.unwrap?.split('.') ?? []) value = value[key];
  return value;
};

const consumers = new Map([['x-consumer-key', 'x-consumer-secret']]);
const x = await startOAuth1Standin({
  requestTokenPath: '/oauth/request_token',
  authorizePath: '/oauth/authenticate',
  accessTokenPath: '/oauth/access_token',
  consumers,
  signedOrigin: 'https://api.x.com',
  accessFields: (user) => ({ user_id: user.split(':')[0]!, screen_name: user.split(':')[1]! }),
});
x.signedRoute('GET', '/1.1/account/verify_credentials.json', (user) => {
  const [id, screenName] = user.split(':') as [string, string];
  return { html: xUserJson(id, screenName, null) };
});
const steam = await startSteam('steam-web-api-key', 'https://steamcommunity.com/openid/login');
steam.addPlayer({ steamid: STEAM_ID, personaname: 'Kim', profileurl: `https://steamcommunity.com/profiles/${STEAM_ID}/`, communityvisibilitystate: 3, profilestate: 1 });
const standin = await startCatalogueStandin();

let source: AllauthCopy;
let database: TestDatabase;
let server: TestServer;
let summary: any;

before(async () => {
  source = await allauthCopy('sqlite');
  const at = sqlTime('sqlite', Date.UTC(2026, 9, 1, 12));
  const apps = [
    ...OAUTH2.map((f) => `('${f.provider}', '${f.provider}', '${f.provider}-client', '${f.provider}-secret', '', '', '{}')`),
    `('twitter', 'X', 'x-consumer-key', 'x-consumer-secret', '', '', '{}')`,
    // Steam's app holds its Web API key as the secret, no client id.
    `('steam', 'Steam', '', 'steam-web-api-key', '', '', '{}')`,
  ];
  const accounts = [
    ...OAUTH2.map((f) => [f.provider, f.provider === 'drip' ? DRIP_HASH_UID : f.expect.uid, storedExtra(f)] as const),
    ['twitter', X_ID, JSON.parse(xUserJson(X_ID, 'judy_x', null))] as const,
    ['steam', STEAM_ID, { steamid: STEAM_ID, personaname: 'Kim', profileurl: `https://steamcommunity.com/profiles/${STEAM_ID}/` }] as const,
  ].map(([provider, uid, extra], i) => `(${20 + i}, '${provider}', ${sql(uid)}, ${at}, ${at}, ${OWNERS[provider]!.userId}, ${sql(extra)})`);
  await source.exec(`
    DELETE FROM socialaccount_socialtoken;
    DELETE FROM socialaccount_socialaccount;
    DELETE FROM socialaccount_socialapp;
    INSERT INTO socialaccount_socialapp (provider, name, client_id, secret, key, provider_id, settings) VALUES ${apps.join(', ')};
    INSERT INTO socialaccount_socialaccount (id, provider, uid, last_login, date_joined, user_id, extra_data) VALUES ${accounts.join(', ')};
  `);
  database = await createMigratedDatabase('sqlite');
  summary = await cliJson(database.url, ['import', 'allauth', source.url, '--show-app-secrets']);

  // The site's SOCIALACCOUNT_PROVIDERS as the import printed it, with the provider-level keys settings.py held.
  const providers = structuredClone(summary.provider_settings) as Record<string, Record<string, unknown>>;
  providers.okta = { ...providers.okta, OKTA_BASE_URL: 'dev-133337.okta.com' };
  server = await startTestServer(
    'sqlite',
    providersEnv(providers, {
      ACCOUNT_EMAIL_VERIFICATION: 'none',
      SOCIALACCOUNT_QUERY_EMAIL: 'true',
      SOCIALACCOUNT_PROVIDER_ORIGINS: JSON.stringify({ ...standin.origins(OAUTH2), 'https://api.x.com': x.url, 'https://steamcommunity.com': steam.url, 'https://api.steampowered.com': steam.url }),
    }),
    { database },
  );
});
after(async () => {
  await server?.close();
  await database?.drop();
  await source?.drop();
  await Promise.all([standin.close(), x.close(), steam.close()]);
});

async function usersCount(): Promise<number> {
  const row = await server.app.deps.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('import from django-allauth: the catalogue\'s providers, then their logins', () => {
  it('brings every account over under its provider and prints the apps as SOCIALACCOUNT_PROVIDERS', async () => {
    assert.deepEqual(summary.rows.social_accounts, { imported: 9, already_imported: 0, skipped: {} });
    assert.deepEqual(
      summary.social_providers.map((p: any) => [p.source, p.provider_id, p.type, p.accounts]),
      Object.keys(OWNERS).sort().map((id) => [id, id, id, 1]),
    );
    for (const f of OAUTH2) assert.deepEqual(summary.provider_settings[f.provider].APPS.map((a: any) => [a.client_id, a.secret]), [[`${f.provider}-client`, `${f.provider}-secret`]]);
    assert.equal(summary.provider_settings.twitter.APPS[0].client_id, 'x-consumer-key');
    assert.equal(summary.provider_settings.steam.APPS[0].secret, 'steam-web-api-key');
    const owners = await server.app.deps.db.selectFrom('social_accounts as a').innerJoin('users as u', 'u.id', 'a.user_id').select(['a.provider', 'a.uid', 'u.username']).orderBy('a.provider').execute();
    assert.deepEqual(
      owners.map((o) => [o.provider, o.username]),
      Object.keys(OWNERS).sort().map((id) => [id, OWNERS[id]!.username]),
    );
    assert.equal(owners.find((o) => o.provider === 'drip')!.uid, 'john@acme.com', 'the address, not the hash');
  });

  for (const f of OAUTH2) {
    it(`${f.provider}: the imported user logs in through the provider as before`, async () => {
      const before = await usersCount();
      const browser = await readyClient(server, 'browser');
      const start = await startRedirect(server, browser, { provider: f.provider, callback_url: CALLBACK_URL });
      assert.equal(start.status, 302);
      const query = new URL(start.location!).searchParams;
      assert.equal(query.get('client_id'), `${f.provider}-client`);
      const redirectUri = query.get('redirect_uri')!;
      // The callback registered at the provider for django-allauth is the one sent.
      assert.equal(redirectUri, `${server.baseUrl}/accounts/${f.provider}/login/callback/`);
      const code = `code-${f.provider}`;
      standin.serve(f, `${f.provider}-client`, `${f.provider}-secret`, { code, redirectUri, challenge: query.get('code_challenge') });
      const callback = new URL(redirectUri);
      for (const [name, value] of Object.entries({ code, state: query.get('state')!, ...f.callback })) callback.searchParams.set(name, value);
      assert.equal((await navigate(browser, callback.toString())).location, CALLBACK_URL);

      const session = await browser.get('/auth/session');
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.equal(session.body.data.user.username, OWNERS[f.provider]!.username);
      assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [[f.provider, f.expect.uid]]);
      assert.equal(await usersCount(), before);
    });
  }

  it('twitter: the imported user logs in over OAuth 1.0a as before (X answers for the same user id)', async () => {
    const before = await usersCount();
    const browser = await readyClient(server, 'browser');
    const start = await startRedirect(server, browser, { provider: 'twitter', callback_url: CALLBACK_URL });
    assert.equal(start.status, 302);
    const authorize = new URL(start.location!);
    assert.equal(`${authorize.origin}${authorize.pathname}`, 'https://api.x.com/oauth/authenticate');
    x.decide(authorize.searchParams.get('oauth_token')!, `${X_ID}:judy_x`);
    // The browser's visit to X, made at the stand-in.
    const callback = await throughProvider(`${x.url}${authorize.pathname}${authorize.search}`, `${server.baseUrl}/accounts/`);
    assert.equal((await navigate(browser, callback)).location, CALLBACK_URL);
    const session = await browser.get('/auth/session');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.data.user.username, 'judy');
    assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [['twitter', X_ID]]);
    assert.equal(await usersCount(), before);
  });

  it('steam: the imported user logs in over OpenID 2.0 as before (Steam asserts the same Steam id)', async () => {
    const before = await usersCount();
    const browser = await readyClient(server, 'browser');
    const start = await startRedirect(server, browser, { provider: 'steam', callback_url: CALLBACK_URL });
    assert.equal(start.status, 302);
    const checkid = new URL(start.location!);
    assert.equal(`${checkid.origin}${checkid.pathname}`, 'https://steamcommunity.com/openid/login');
    steam.decide(new URL(checkid.searchParams.get('openid.return_to')!).searchParams.get('state')!, STEAM_ID);
    // The browser's visit to Steam, made at the stand-in.
    const callback = await throughProvider(`${steam.url}${checkid.pathname}${checkid.search}`, `${server.baseUrl}/accounts/`);
    assert.equal((await navigate(browser, callback)).location, CALLBACK_URL);
    assert.deepEqual(steam.checks.at(-1), true, 'Steam confirmed the assertion');
    const session = await browser.get('/auth/session');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.data.user.username, 'kim');
    assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [['steam', STEAM_ID]]);
    assert.equal(await usersCount(), before);
  });

  it('the imported apps are listed in /config as the reference lists them', async () => {
    const listed = (await server.client('browser').get('/config')).body.data.socialaccount.providers.map((p: any) => p.id).sort();
    assert.deepEqual(listed, Object.keys(OWNERS).sort());
  });
});
