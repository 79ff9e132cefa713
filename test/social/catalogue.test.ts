import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '../support/server.js';
import { readyClient, assertError } from '../support/accounts.js';
import { navigate, providersEnv, startRedirect, tokenLogin } from '../support/social.js';
import { startCatalogueStandin, type Fixture } from '../support/catalogue-standin.js';
import { loadConfig } from '../../src/config/config.js';
import { providerType, providerTypes } from '../../src/social/providers/index.js';

// The catalogue of providers, each through the redirect flow against one
// loopback stand-in that answers with the example responses of the
// provider's API documentation (test/social/fixtures/<id>.json, each naming
// its source): the authorization request we send (endpoint, scopes,
// parameters, PKCE where the reference uses it), then the uid, addresses
// with their verified flags, username and extra_data we derive. One server
// (SQLite) for every provider; the other suites cover the databases.

const FIXTURE_DIR = new URL('./fixtures/', import.meta.url);
/** Integers beyond 2^53 in a documented answer are served with every digit, as the provider sends them. */
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;
const exact = (_key: string, value: unknown, context?: { source?: string }) => (typeof value === 'number' && /^-?\d+$/.test(context?.source ?? '') && !Number.isSafeInteger(value) ? rawJson(context!.source!) : value);
const FIXTURES: Fixture[] = readdirSync(FIXTURE_DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(new URL(name, FIXTURE_DIR), 'utf8'), exact as (key: string, value: unknown) => unknown) as Fixture);
const CALLBACK_URL = 'http://localhost:3000/account/provider/callback';

const clientOf = (id: string) => ({ clientId: `${id}-client`, secret: `${id}-secret` });

function providersSetting(): Record<string, unknown> {
  return Object.fromEntries(
    FIXTURES.map((fixture) => {
      const { clientId, secret } = clientOf(fixture.provider);
      return [fixture.provider, { ...fixture.settings, APP: { client_id: clientId, secret, key: fixture.app?.key ?? '', settings: fixture.app?.settings ?? {} } }];
    }),
  );
}

const standin = await startCatalogueStandin();
let server: TestServer;
before(async () => {
  server = await startTestServer(
    'sqlite',
    providersEnv(providersSetting(), {
      ACCOUNT_EMAIL_VERIFICATION: 'none',
      ACCOUNT_SIGNUP_FIELDS: 'email,username,password1',
      SOCIALACCOUNT_QUERY_EMAIL: 'true',
      SOCIALACCOUNT_PROVIDER_ORIGINS: JSON.stringify({ ...standin.origins(FIXTURES), 'https://limited.facebook.com': `${standin.url}/limited.facebook.com` }),
    }),
  );
});
after(async () => {
  await server?.close();
  await standin.close();
});

async function storedExtraData(provider: string, uid: string): Promise<unknown> {
  const row = await server.app.deps.db.selectFrom('social_accounts').select('extra_data').where('provider', '=', provider).where('uid', '=', uid).executeTakeFirstOrThrow();
  const value = (row as { extra_data: unknown }).extra_data;
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** The fixture's expected extra_data: written out, or `{"$response": n, "unwrap"?: path}` for (part of) the n-th documented answer as it came. */
function expectedExtraData(fixture: Fixture): unknown {
  const expected = fixture.expect.extra_data as { $response?: number; unwrap?: string } | null;
  if (expected === null || typeof expected !== 'object' || expected.$response === undefined) return expected;
  let value: any = fixture.calls[expected.$response]!.response;
  for (const key of expected.unwrap?.split('.') ?? []) value = value[key];
  return value;
}

describe('the provider catalogue, each provider against its documented answers', () => {
  for (const fixture of FIXTURES) {
    it(`${fixture.provider}: the authorization request, and the account derived from the answers`, async () => {
      const { clientId, secret } = clientOf(fixture.provider);
      const browser = await readyClient(server, 'browser');
      const start = await startRedirect(server, browser, { provider: fixture.provider, callback_url: CALLBACK_URL });
      assert.equal(start.status, 302);
      const authorization = new URL(start.location!);
      assert.equal(`${authorization.origin}${authorization.pathname}`, fixture.authorize.url);
      const query = authorization.searchParams;
      assert.equal(query.get(fixture.authorize.clientIdParam ?? 'client_id'), clientId);
      assert.equal(query.get('response_type'), 'code');
      assert.equal(query.get('scope'), fixture.authorize.scope);
      const redirectUri = query.get('redirect_uri')!;
      const origin = fixture.authorize.callbackProtocol ? server.baseUrl.replace(/^http:/, `${fixture.authorize.callbackProtocol}:`) : server.baseUrl;
      assert.equal(redirectUri, `${origin}${fixture.authorize.callbackPath ?? `/accounts/${fixture.provider}/login/callback/`}`);
      const state = query.get('state');
      assert.ok(state);
      assert.equal(query.get('code_challenge_method'), fixture.authorize.pkce ? 'S256' : null);
      assert.equal(query.has('nonce'), false);
      for (const [name, value] of Object.entries(fixture.authorize.params ?? {})) assert.equal(query.get(name), value.replace('{redirect_uri}', redirectUri), name);

      const code = `code-${fixture.provider}`;
      standin.serve(fixture, clientId, secret, { code, redirectUri, challenge: query.get('code_challenge') });
      // The browser comes back to this (plain http) test server whatever scheme the provider was told.
      const callback = new URL(redirectUri.replace(/^https:/, server.baseUrl.startsWith('https:') ? 'https:' : 'http:'));
      for (const [name, value] of Object.entries({ [fixture.codeParam ?? 'code']: code, state, ...fixture.callback })) callback.searchParams.set(name, value);
      const landing = await navigate(browser, callback.toString());
      assert.equal(landing.location, CALLBACK_URL);

      const session = await browser.get('/auth/session');
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [[fixture.provider, fixture.expect.uid]]);
      const emails = (await browser.get('/account/email')).body.data.map((e: any) => ({ email: e.email, verified: e.verified }));
      assert.deepEqual(emails, fixture.expect.emails);
      if (fixture.expect.username) assert.ok(session.body.data.user.username.startsWith(fixture.expect.username), session.body.data.user.username);
      assert.deepEqual(await storedExtraData(fixture.provider, fixture.expect.uid), expectedExtraData(fixture));
    });
  }
});

describe('the token flow of the catalogue', () => {
  const facebook = FIXTURES.find((f) => f.provider === 'facebook')!;
  const me = facebook.calls[0]!.response as { id: string };

  it('Facebook: an access token counts once debug_token says it is this app\'s; a Limited Login ID token by Facebook\'s keys', async () => {
    const tokens: Record<string, string> = { 'EAAGm0PX4ZCpsBA': 'facebook-client', 'EAAForAnotherApp': 'another-app' };
    standin.standin.routes.set('GET /graph.facebook.com/v19.0/debug_token', ({ url }) => {
      if (url.searchParams.get('access_token') !== '1234567890|app-token') return { status: 400, json: { error: { message: 'Invalid OAuth access token.', code: 190 } } };
      const app = tokens[url.searchParams.get('input_token') ?? ''];
      return { json: { data: app ? { app_id: app, type: 'USER', is_valid: true, user_id: me.id, scopes: ['email'] } : { is_valid: false, error: { code: 190, message: 'Invalid' } } } };
    });
    const client = await readyClient(server, 'app');
    const ok = await tokenLogin(client, 'facebook', { client_id: 'facebook-client', access_token: 'EAAGm0PX4ZCpsBA' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.data.methods.map((m: any) => [m.provider, m.uid]), [['facebook', me.id]]);
    assertError(await tokenLogin(await readyClient(server, 'app'), 'facebook', { client_id: 'facebook-client', access_token: 'EAAForAnotherApp' }), 400, 'invalid_token', 'token');
    assertError(await tokenLogin(await readyClient(server, 'app'), 'facebook', { client_id: 'facebook-client', access_token: 'EAAUnknown' }), 400, 'invalid_token', 'token');

    standin.standin.routes.set('GET /limited.facebook.com/.well-known/oauth/openid/jwks/', async () => ({ json: await standin.standin.jwks() }));
    const now = Math.floor(server.clock.now() / 1000);
    // The claims of Facebook's documented Limited Login token.
    const claims = { iss: 'https://www.facebook.com', aud: 'facebook-client', sub: me.id, iat: now, exp: now + 3600, jti: `jti-${now}`, nonce: 'nonce-of-the-app', email: 'jane.fb@example.com', given_name: 'Jane', family_name: 'Doe', name: 'Jane Doe' };
    const limited = await tokenLogin(await readyClient(server, 'app'), 'facebook', { client_id: 'facebook-client', id_token: await standin.standin.signIdToken(claims) });
    assert.equal(limited.status, 200, JSON.stringify(limited.body));
    assert.equal(limited.body.data.user.id, ok.body.data.user.id);
    const foreign = await standin.standin.signIdToken({ ...claims, aud: 'another-app', jti: 'other' });
    assertError(await tokenLogin(await readyClient(server, 'app'), 'facebook', { client_id: 'facebook-client', id_token: foreign }), 400, 'invalid_token', 'token');
  });

  it('refuses tokens for a provider the reference takes none for', async () => {
    assertError(await tokenLogin(await readyClient(server, 'app'), 'spotify', { client_id: 'spotify-client', access_token: 'whatever' }), 400, 'token_authentication_not_supported', 'provider');
  });

  it('lists every configured provider in /config as the reference: browsers all, apps those with the token flow', async () => {
    const browser = (await server.client('browser').get('/config')).body.data.socialaccount.providers;
    const expected = FIXTURES.map((f) => ({ id: f.provider, name: providerType(f.provider)!.name, client_id: `${f.provider}-client` })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    assert.deepEqual(browser.map((p: any) => ({ id: p.id, name: p.name, client_id: p.client_id })), expected);
    assert.deepEqual(browser.find((p: any) => p.id === 'spotify').flows, ['provider_redirect']);
    const app = (await server.client('app').get('/config')).body.data.socialaccount.providers;
    assert.deepEqual(app.map((p: any) => [p.id, p.flows]), [['facebook', ['provider_redirect', 'provider_token']]]);
  });
});

describe('the reference\'s catalogue', () => {
  const reference = readFileSync(new URL('./reference-providers.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(/\s+/)[0]!);

  it('every provider id of the reference is served here or listed with a reason in docs/differences.md', () => {
    assert.equal(reference.length, 122);
    const differences = readFileSync(new URL('../../docs/differences.md', import.meta.url), 'utf8');
    const listed = new Map([...differences.matchAll(/^\| `([^`]+)` \| ([^|]*\S[^|]*) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));
    const missing = reference.filter((id) => !providerType(id) && !listed.has(id));
    assert.deepEqual(missing, []);
    // Nothing served here is listed as missing.
    assert.deepEqual(reference.filter((id) => providerType(id) && listed.has(id)), []);
  });

  it('an allauth SOCIALACCOUNT_PROVIDERS with every provider served here starts unchanged', () => {
    const required: Record<string, Record<string, unknown>> = {
      okta: { OKTA_BASE_URL: 'dev-1.okta.com' },
      auth0: { AUTH0_URL: 'https://example.eu.auth0.com' },
      amazon_cognito: { DOMAIN: 'https://example.auth.us-east-1.amazoncognito.com' },
      lemonldap: { LEMONLDAP_URL: 'https://auth.example.com' },
      netiq: { NETIQ_URL: 'https://netiq.example.com' },
      jupyterhub: { API_URL: 'https://hub.example.com' },
    };
    const appSettings: Record<string, Record<string, unknown>> = {
      openid_connect: { server_url: 'https://sso.example.com' },
      apple: { certificate_key: '' },
      shopify: { shop: 'example-store' },
    };
    const document: Record<string, unknown> = {};
    // Apple needs a real key and SAML an identity provider's settings: their own suites start them.
    const own = ['apple', 'saml'];
    for (const type of providerTypes) {
      if (own.includes(type.id)) continue;
      const app: Record<string, unknown> = { client_id: `${type.id}-id`, secret: 's', key: '', settings: appSettings[type.id] ?? {} };
      if (type.id === 'openid_connect') app.provider_id = 'sso';
      document[type.id] = { SCOPE: ['a', 'b'], AUTH_PARAMS: { prompt: 'consent' }, VERIFIED_EMAIL: false, OAUTH_PKCE_ENABLED: true, ...required[type.id], APPS: [app] };
    }
    const config = loadConfig({ SECRET_KEY: 'a-secret-key-long-enough-for-the-test-0123456789', SOCIALACCOUNT_PROVIDERS: JSON.stringify(document) });
    assert.equal(config.social.apps.length, providerTypes.length - own.length);
  });
});
