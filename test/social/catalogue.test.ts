import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '../support/server.js';
import { readyClient, assertError } from '../support/accounts.js';
import { navigate, providersEnv, startRedirect, tokenLogin } from '../support/social.js';
import { providerUrl, startCatalogueStandin, type Fixture } from '../support/catalogue-standin.js';
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
const FIXTURES: Fixture[] = readdirSync(FIXTURE_DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(new URL(name, FIXTURE_DIR), 'utf8')) as Fixture);
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
      SOCIALACCOUNT_PROVIDER_ORIGINS: JSON.stringify(standin.origins(FIXTURES)),
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

describe('the provider catalogue, each provider against its documented answers', () => {
  for (const fixture of FIXTURES) {
    it(`${fixture.provider}: the authorization request, and the account derived from the answers`, async () => {
      const { clientId, secret } = clientOf(fixture.provider);
      const browser = await readyClient(server, 'browser');
      const start = await startRedirect(server, browser, { provider: fixture.provider, callback_url: CALLBACK_URL });
      assert.equal(start.status, 302);
      const authorization = providerUrl(standin.url, start.location!);
      assert.equal(`${authorization.origin}${authorization.pathname}`, fixture.authorize.url);
      const query = authorization.searchParams;
      assert.equal(query.get(fixture.authorize.clientIdParam ?? 'client_id'), clientId);
      assert.equal(query.get('response_type'), 'code');
      assert.equal(query.get('scope'), fixture.authorize.scope);
      const redirectUri = query.get('redirect_uri')!;
      assert.match(redirectUri, /\/accounts\/[^/]+\/login\/callback\/$/);
      const state = query.get('state');
      assert.ok(state);
      assert.equal(query.get('code_challenge_method'), fixture.authorize.pkce ? 'S256' : null);
      assert.equal(query.has('nonce'), false);
      for (const [name, value] of Object.entries(fixture.authorize.params ?? {})) assert.equal(query.get(name), value, name);

      const code = `code-${fixture.provider}`;
      standin.serve(fixture, clientId, secret, { code, redirectUri, challenge: query.get('code_challenge') });
      const callback = new URL(redirectUri);
      for (const [name, value] of Object.entries({ code, state, ...fixture.callback })) callback.searchParams.set(name, value);
      const landing = await navigate(browser, callback.toString());
      assert.equal(landing.location, CALLBACK_URL);

      const session = await browser.get('/auth/session');
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [[fixture.provider, fixture.expect.uid]]);
      const emails = (await browser.get('/account/email')).body.data.map((e: any) => ({ email: e.email, verified: e.verified }));
      assert.deepEqual(emails, fixture.expect.emails);
      if (fixture.expect.username) assert.ok(session.body.data.user.username.startsWith(fixture.expect.username), session.body.data.user.username);
      assert.deepEqual(await storedExtraData(fixture.provider, fixture.expect.uid), fixture.expect.extra_data);
    });
  }
});
