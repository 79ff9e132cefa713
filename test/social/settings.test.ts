import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describeEachDatabase, startTestServer, type TestServer } from '../support/server.js';
import { startIdp } from '../support/oidc-provider.js';
import { assertError, flowIds, readyClient, uniqueEmail } from '../support/accounts.js';
import { idTokenClaims, oidcApp, providersEnv, startRedirect, tokenLogin } from '../support/social.js';

// The settings around social login: SOCIALACCOUNT_ONLY, the rate limits on
// its endpoints, usernames for new social users (also when two sign up at
// once with the same name), and the endpoints in the OpenAPI description.

const idp = await startIdp();
after(() => idp.close());
const PROVIDERS = { openid_connect: { APPS: [oidcApp(idp, { id: 'idp', clientId: 'app-client' })] } };
const sub = () => `user-${randomUUID()}`;

describe('SOCIALACCOUNT_ONLY', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', providersEnv(PROVIDERS, { SOCIALACCOUNT_ONLY: 'true', ACCOUNT_EMAIL_VERIFICATION: 'none' }));
  });
  after(async () => {
    await server?.close();
  });

  it('has no local login, signup or address management, and keeps the last provider account', async () => {
    const client = await readyClient(server, 'app');
    for (const path of ['/auth/login', '/auth/signup', '/auth/password/request', '/auth/email/verify']) {
      assert.equal((await client.post(path, {})).status, 404, path);
    }
    assert.deepEqual(flowIds((await client.get('/auth/session')).body), ['provider_token']);
    const uid = sub();
    const token = await idp.sign(idTokenClaims(idp, server, 'app-client', { sub: uid, email: uniqueEmail('only'), email_verified: true }));
    assert.equal((await tokenLogin(client, 'idp', { client_id: 'app-client', id_token: token })).status, 200);
    assert.equal((await client.get('/account/email')).status, 404);
    assertError(await client.delete('/account/providers', { provider: 'idp', account: uid }), 400, 'disconnect_last');
  });
});

describe('rate limits on the social endpoints', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', providersEnv(PROVIDERS, { ACCOUNT_RATE_LIMITS: JSON.stringify({ login: '2/m/ip' }) }));
  });
  after(async () => {
    await server?.close();
  });

  it('counts token logins and redirects under the per-IP login limit', async () => {
    const client = await readyClient(server, 'app');
    const attempt = () => tokenLogin(client, 'idp', { client_id: 'app-client', id_token: 'not-a-jwt' });
    assert.equal((await attempt()).status, 400);
    assert.equal((await attempt()).status, 400);
    const limited = await attempt();
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    // The redirect flow is a navigation: the limit is told in the landing URL, not as JSON.
    const browser = await readyClient(server, 'browser');
    const hop = await startRedirect(server, browser, { provider: 'idp', callback_url: '/callback' });
    assert.equal(hop.location, `${server.baseUrl}/callback?error=rate_limited&error_process=login`);
  });
});

describeEachDatabase(
  'usernames for new social users',
  providersEnv(PROVIDERS, { ACCOUNT_SIGNUP_FIELDS: 'email*,username*,password1*', ACCOUNT_EMAIL_VERIFICATION: 'none' }),
  ({ server }) => {
    const login = (claims: Record<string, unknown>) =>
      idp.sign(idTokenClaims(idp, server(), 'app-client', { sub: sub(), email_verified: true, ...claims })).then(async (token) => tokenLogin(await readyClient(server(), 'app'), 'idp', { client_id: 'app-client', id_token: token }));

    it('takes the provider\'s username when it is free, and makes one otherwise', async () => {
      const name = `ada${randomUUID().slice(0, 6)}`;
      const first = await login({ email: uniqueEmail(), preferred_username: name });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.data.user.username, name);
      const second = await login({ email: uniqueEmail(), preferred_username: name });
      assert.equal(second.status, 200);
      assert.match(second.body.data.user.username, new RegExp(`^${name}\\d+$`));
    });

    it('regression: two users with the same name signing up at once both get an account', async () => {
      const given = `Grace${randomUUID().slice(0, 6)}`;
      const results = await Promise.all(Array.from({ length: 4 }, () => login({ email: uniqueEmail(), given_name: given })));
      assert.deepEqual(results.map((r) => r.status), [200, 200, 200, 200], JSON.stringify(results.map((r) => r.body)));
      const usernames = results.map((r) => r.body.data.user.username);
      assert.equal(new Set(usernames).size, 4, `distinct usernames: ${usernames.join(', ')}`);
    });
  },
);

describe('the social endpoints in the OpenAPI description', () => {
  it('documents each of them, with its error codes', async () => {
    const server = await startTestServer('sqlite', providersEnv(PROVIDERS));
    try {
      const spec = (await (await fetch(`${server.baseUrl}/_service/openapi.json`)).json()) as { paths: Record<string, Record<string, { description?: string }>> };
      for (const client of ['browser', 'app']) {
        const prefix = `/_service/${client}/v1`;
        assert.match(spec.paths[`${prefix}/auth/provider/token`]?.post?.description ?? '', /invalid_token/);
        assert.ok(spec.paths[`${prefix}/auth/provider/signup`]?.get);
        assert.match(spec.paths[`${prefix}/auth/provider/signup`]?.post?.description ?? '', /email_taken/);
        assert.ok(spec.paths[`${prefix}/account/providers`]?.get);
        assert.match(spec.paths[`${prefix}/account/providers`]?.delete?.description ?? '', /no_password/);
      }
      assert.match(spec.paths['/_service/browser/v1/auth/provider/redirect']?.post?.description ?? '', /csrfmiddlewaretoken/);
      assert.equal(spec.paths['/_service/app/v1/auth/provider/redirect'], undefined);
      assert.ok(spec.paths['/accounts/oidc/{providerId}/login/callback/']?.get);
    } finally {
      await server.close();
    }
  });
});
