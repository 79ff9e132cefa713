import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importPKCS8, SignJWT, type JWTPayload } from 'jose';
import { startTestServer, type TestServer } from '../support/server.js';
import { startStandin } from '../support/standin.js';
import { makeKeyPair } from '../support/simplesamlphp.js';
import { assertError, readyClient } from '../support/accounts.js';
import { navigate, providersEnv, startRedirect, tokenLogin } from '../support/social.js';
import { loadConfig } from '../../src/config/config.js';

// Provider settings of the reference that change what the catalogue does:
// Google's fixed endpoints (AUTHORIZE_URL, ACCESS_TOKEN_URL, IDENTITY_URL,
// CERTS_URL with Google's v1 certificates by key id, ID_TOKEN_ISSUER), EVE
// Online's publicData scope when tokens are kept, and a provider's
// `localhost` address, kept as the reference keeps it while the API's own
// fields still refuse one.

const CALLBACK_URL = 'http://localhost:3000/account/provider/callback';
const AUTHORIZE_URL = 'https://google-proxy.example.com/o/oauth2/v2/auth';
const dir = mkdtempSync(join(tmpdir(), 'google-certs-'));
const pair = makeKeyPair(dir, 'google');
rmSync(dir, { recursive: true, force: true });
const KID = 'c7e04465649ffa606557650c7e65f0a87ae00fe8';
const signingKey = await importPKCS8(pair.key, 'RS256');
const sign = (claims: JWTPayload, kid = KID) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(signingKey);

// One stand-in answers for Google and for a Shopify store (under /<host>/, SOCIALACCOUNT_PROVIDER_ORIGINS maps it).
const standin = await startStandin();
// Google's v1 certs: PEM certificates by key id, as the reference's CERTS_URL default publishes them.
standin.routes.set('GET /oauth2/v1/certs', () => ({ json: { [KID]: pair.cert } }));
const SUB = '110169484474386276334';
let pendingNonce = '';
standin.routes.set('POST /token', async ({ body }) => {
  if (body.code !== 'google-code' || body.client_id !== 'google-client' || body.client_secret !== 'google-secret') return { status: 400, json: { error: 'invalid_grant' } };
  const now = Math.floor(server.clock.now() / 1000);
  const idToken = await sign({ iss: 'https://accounts.google.com', aud: 'google-client', azp: 'google-client', sub: SUB, email: 'sam.g@example.com', email_verified: true, iat: now, exp: now + 3600, nonce: pendingNonce });
  return { json: { access_token: 'ya29.a0AfH6SMBx', expires_in: 3599, scope: 'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile', token_type: 'Bearer', id_token: idToken } };
});
// Google's v2 userinfo (the reference's IDENTITY_URL default): `id`, not `sub`.
standin.routes.set('GET /oauth2/v2/userinfo', ({ headers }) =>
  headers.authorization === 'Bearer ya29.a0AfH6SMBx'
    ? { json: { id: SUB, email: 'sam.g@example.com', verified_email: true, name: 'Sam Gee', given_name: 'Sam', family_name: 'Gee', picture: 'https://lh3.googleusercontent.com/a/photo', locale: 'en' } }
    : { status: 401, json: { error: 'invalid_token' } },
);

// Shopify's online (per-user) grant: the token answer names the staff member (the authorization code grant guide's example).
const STAFF = { id: 902541635, first_name: 'John', last_name: 'Smith', email: 'john@example.com', email_verified: true, account_owner: true, locale: 'en', collaborator: false };
standin.routes.set('POST /staff-store.myshopify.com/admin/oauth/access_token', ({ body }) =>
  body.code === 'shopify-code' && body.client_id === 'shopify-client' && body.client_secret === 'shopify-secret'
    ? { json: { access_token: 'f85632530bf277ec9ac6f649fc327f17', scope: 'read_orders', expires_in: 86399, associated_user_scope: 'read_orders', associated_user: STAFF } }
    : { status: 400, json: { error: 'invalid_request' } },
);
standin.routes.set('GET /staff-store.myshopify.com/admin/shop.json', ({ headers }) =>
  headers['x-shopify-access-token'] === 'f85632530bf277ec9ac6f649fc327f17' ? { json: { shop: { id: 548380009, name: 'Staff Store', email: 'owner@example.com', myshopify_domain: 'staff-store.myshopify.com' } } } : { status: 401, json: { errors: '[API] Invalid API key or access token' } },
);

let server: TestServer;
before(async () => {
  server = await startTestServer(
    'sqlite',
    providersEnv(
      {
        google: {
          AUTHORIZE_URL,
          ACCESS_TOKEN_URL: `${standin.url}/token`,
          IDENTITY_URL: `${standin.url}/oauth2/v2/userinfo`,
          CERTS_URL: `${standin.url}/oauth2/v1/certs`,
          ID_TOKEN_ISSUER: 'https://accounts.google.com',
          FETCH_USERINFO: true,
          APP: { client_id: 'google-client', secret: 'google-secret' },
        },
        eveonline: { APP: { client_id: 'eve-client', secret: 'eve-secret' } },
        shopify: { AUTH_PARAMS: { 'grant_options[]': 'per-user' }, IS_EMBEDDED: false, APP: { client_id: 'shopify-client', secret: 'shopify-secret', settings: { shop: 'staff-store' } } },
      },
      {
        SOCIALACCOUNT_PROVIDER_ORIGINS: JSON.stringify({ 'https://staff-store.myshopify.com': `${standin.url}/staff-store.myshopify.com` }),
        SOCIALACCOUNT_STORE_TOKENS: 'true', SOCIALACCOUNT_QUERY_EMAIL: 'true', ACCOUNT_EMAIL_VERIFICATION: 'none' },
    ),
  );
});
after(async () => {
  await server?.close();
  await standin.close();
});

describe('Google with the reference\'s endpoint settings', () => {
  let userId: string;

  it('sends the browser to AUTHORIZE_URL, redeems at ACCESS_TOKEN_URL, reads IDENTITY_URL (v2, `id` for `sub`)', async () => {
    const browser = await readyClient(server, 'browser');
    const start = await startRedirect(server, browser, { provider: 'google', callback_url: CALLBACK_URL });
    assert.equal(start.status, 302);
    const authorization = new URL(start.location!);
    assert.equal(`${authorization.origin}${authorization.pathname}`, AUTHORIZE_URL);
    assert.equal(authorization.searchParams.get('scope'), 'openid profile email');
    pendingNonce = authorization.searchParams.get('nonce')!;
    assert.ok(pendingNonce);
    const callback = new URL(authorization.searchParams.get('redirect_uri')!);
    callback.searchParams.set('code', 'google-code');
    callback.searchParams.set('state', authorization.searchParams.get('state')!);
    assert.equal((await navigate(browser, callback.toString())).location, CALLBACK_URL);
    const session = await browser.get('/auth/session');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [['google', SUB]]);
    userId = session.body.data.user.id;
    const row = await server.app.deps.db.selectFrom('social_accounts').select('extra_data').where('provider', '=', 'google').executeTakeFirstOrThrow();
    const extra = typeof row.extra_data === 'string' ? JSON.parse(row.extra_data) : row.extra_data;
    // The ID token's claims with the userinfo answer over them, as the reference merges them.
    assert.equal(extra.sub, SUB);
    assert.equal(extra.id, SUB);
    assert.equal(extra.verified_email, true);
    assert.equal(extra.name, 'Sam Gee');
  });

  it('checks a token flow ID token against the PEM certificates at CERTS_URL and the ID_TOKEN_ISSUER', async () => {
    const now = Math.floor(server.clock.now() / 1000);
    const claims = { iss: 'https://accounts.google.com', aud: 'google-client', sub: SUB, email: 'sam.g@example.com', email_verified: true, iat: now, exp: now + 3600 };
    const ok = await tokenLogin(await readyClient(server, 'app'), 'google', { client_id: 'google-client', id_token: await sign(claims) });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.data.user.id, userId);
    const other = await tokenLogin(await readyClient(server, 'app'), 'google', { client_id: 'google-client', id_token: await sign({ ...claims, iss: 'https://elsewhere.example.com' }) });
    assertError(other, 400, 'invalid_token', 'token');
    const unknownKey = await tokenLogin(await readyClient(server, 'app'), 'google', { client_id: 'google-client', id_token: await sign(claims, 'not-a-google-key') });
    assertError(unknownKey, 400, 'invalid_token', 'token');
  });
});

describe('EVE Online with SOCIALACCOUNT_STORE_TOKENS', () => {
  it('asks for publicData, as the reference does when tokens are kept', async () => {
    const browser = await readyClient(server, 'browser');
    const start = await startRedirect(server, browser, { provider: 'eveonline', callback_url: CALLBACK_URL });
    assert.equal(new URL(start.location!).searchParams.get('scope'), 'publicData');
  });
});

describe('Shopify', () => {
  it('with a per-user grant, the account is the staff member the token answer names, kept as associated_user', async () => {
    const browser = await readyClient(server, 'browser');
    const start = await startRedirect(server, browser, { provider: 'shopify', callback_url: CALLBACK_URL });
    const authorization = new URL(start.location!);
    assert.equal(`${authorization.origin}${authorization.pathname}`, 'https://staff-store.myshopify.com/admin/oauth/authorize');
    assert.equal(authorization.searchParams.get('grant_options[]'), 'per-user');
    const callback = new URL(authorization.searchParams.get('redirect_uri')!);
    callback.searchParams.set('code', 'shopify-code');
    callback.searchParams.set('state', authorization.searchParams.get('state')!);
    assert.equal((await navigate(browser, callback.toString())).location, CALLBACK_URL);
    const session = await browser.get('/auth/session');
    assert.deepEqual(session.body.data.methods.map((m: any) => [m.provider, m.uid]), [['shopify', String(STAFF.id)]]);
    assert.deepEqual((await browser.get('/account/email')).body.data.map((e: any) => [e.email, e.verified]), [['john@example.com', true]]);
    const row = await server.app.deps.db.selectFrom('social_accounts').select('extra_data').where('provider', '=', 'shopify').executeTakeFirstOrThrow();
    const extra = typeof row.extra_data === 'string' ? JSON.parse(row.extra_data) : row.extra_data;
    assert.deepEqual(extra.associated_user, STAFF);
    assert.equal(extra.shop.id, 548380009);
  });

  it('refuses at start a shop that is no myshopify.com store', () => {
    const start = (shop: string) => () =>
      loadConfig({ SECRET_KEY: 'a-secret-key-long-enough-for-the-test-0123456789', SOCIALACCOUNT_PROVIDERS: JSON.stringify({ shopify: { APP: { client_id: 'c', secret: 's', settings: { shop } } } }) });
    assert.throws(start('evil.example.com/'), /shop/);
    assert.throws(start('a.b.example.com'), /shop/);
    assert.doesNotThrow(start('example-store.myshopify.com'));
  });
});

describe('an address at localhost', () => {
  it('the API\'s own fields still refuse one (a provider\'s is kept: the Lichess fixture)', async () => {
    const browser = await readyClient(server, 'browser');
    assertError(await browser.post('/auth/signup', { email: 'bobby@localhost', password: 'a long secret phrase' }), 400, 'invalid', 'email');
  });
});
