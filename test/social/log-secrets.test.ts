import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApiClient } from '../support/client.js';
import { startServerProcess, type ServerProcess } from '../support/process-server.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startIdp, type TestIdp } from '../support/oidc-provider.js';
import { approvedCallback, navigate, oidcApp } from '../support/social.js';
import { uniqueEmail } from '../support/accounts.js';

// No secret of social login in a log line: a server process runs the
// redirect flow (state, nonce, code, PKCE verifier, the browser's binding cookie)
// and the token flow (ID tokens, good and forged, and a failing callback
// that is logged as a warning) at the most verbose level, then every line is
// searched for each of them and for the app's client secret.

describe('logs of social login hold no secret', () => {
  let idp: TestIdp;
  let database: TestDatabase;
  let server: ServerProcess;
  const secrets = new Map<string, string>();
  const keep = (label: string, value: unknown) => {
    if (typeof value === 'string' && value.length >= 8) secrets.set(value, label);
  };
  const CLIENT_SECRET = `client-secret-${randomUUID()}`;

  before(async () => {
    idp = await startIdp();
    database = await createTestDatabase('sqlite');
    const app = { ...oidcApp(idp, { id: 'idp', clientId: 'log-client' }), secret: CLIENT_SECRET };
    server = await startServerProcess({
      LOG_LEVEL: 'trace',
      DATABASE_URL: database.url,
      SECRET_KEY: randomUUID().repeat(2),
      EMAIL_BACKEND: 'console',
      ACCOUNT_RATE_LIMITS: 'false',
      ACCOUNT_EMAIL_VERIFICATION: 'none',
      SOCIALACCOUNT_STORE_TOKENS: 'true',
      SOCIALACCOUNT_PROVIDERS: JSON.stringify({ openid_connect: { APPS: [app] } }),
    });
    idp.addClient({ client_id: 'log-client', client_secret: CLIENT_SECRET, redirect_uris: [`${server.baseUrl}/accounts/oidc/idp/login/callback/`] });
    keep('client secret', CLIENT_SECRET);
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
    await idp?.close();
  });

  it('runs both flows, then finds none of their secrets in any line', async () => {
    const sub = `log-${randomUUID()}`;
    idp.addAccount(sub, { email: uniqueEmail('logs'), email_verified: true });

    // The redirect flow, then a replay and a forged code (both logged as failures).
    const browser = new ApiClient(server.baseUrl, 'browser');
    await browser.get('/config');
    for (const forge of [false, true]) {
      const approved = await approvedCallback(server, browser, { provider: 'idp', callback_url: '/landing' }, (state) => {
        keep('state', state);
        idp.decide(state, { sub });
      });
      keep('nonce', approved.authorization.searchParams.get('nonce'));
      const callback = new URL(approved.callback);
      keep('authorization code', callback.searchParams.get('code'));
      if (forge) callback.searchParams.set('code', `forged-${randomUUID()}`);
      keep('forged code', callback.searchParams.get('code'));
      const landing = await navigate(browser, callback.href);
      assert.ok(landing.location?.startsWith(`${server.baseUrl}/landing`));
      if (!forge) {
        keep('PKCE verifier', idp.tokenRequests.at(-1)!.body.code_verifier);
        assert.ok((await navigate(browser, callback.href)).location?.includes('error=unknown'), 'the replay was refused');
      }
    }
    for (const [name, value] of browser.cookies) keep(`cookie ${name}`, value);

    // The token flow: a good ID token, a forged one.
    const app = new ApiClient(server.baseUrl, 'app');
    const now = Math.floor(Date.now() / 1000);
    const idToken = await idp.sign({ iss: idp.issuer, aud: 'log-client', sub, iat: now, exp: now + 600, jti: randomUUID() });
    keep('ID token', idToken);
    keep('ID token signature', idToken.split('.')[2]);
    const login = await app.post('/auth/provider/token', { provider: 'idp', process: 'login', token: { client_id: 'log-client', id_token: idToken } });
    assert.equal(login.status, 200);
    keep('session token', login.body.meta.session_token);
    const forged = `${idToken.slice(0, -4)}AAAA`;
    keep('forged ID token', forged);
    assert.equal((await app.post('/auth/provider/token', { provider: 'idp', process: 'login', token: { client_id: 'log-client', id_token: forged } })).status, 400);

    await server.stop();
    const lines = server.output().split('\n').filter((line) => line.trim() !== '');
    assert.ok(lines.some((line) => line.includes('provider login failed at the callback')), 'the failed callback was logged');
    assert.ok(lines.filter((line) => line.includes('"msg":"request"')).length >= 8, 'every request has its line');
    assert.ok(secrets.size >= 12, `collected ${secrets.size} secrets`);
    for (const line of lines) {
      for (const [secret, label] of secrets) assert.ok(!line.includes(secret), `a ${label} is in the log: ${line}`);
    }
  });
});
