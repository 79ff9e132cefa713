import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { flowIds } from '../support/accounts.js';

const SECRET = 'test-secret-key-that-is-long-enough-0123456789';

const KEYCLOAK = { provider_id: 'keycloak', name: 'Keycloak', client_id: 'kc-client', secret: 'kc-secret', settings: { server_url: 'https://sso.example.com/realms/main' } };
const AUTH0 = { provider_id: 'auth0', name: 'Auth0', client_id: 'a0-client', secret: 'a0-secret', settings: { server_url: 'https://tenant.auth0.com/.well-known/openid-configuration' } };

function providers(value: unknown): Record<string, string> {
  return { SECRET_KEY: SECRET, SOCIALACCOUNT_PROVIDERS: JSON.stringify(value) };
}

/** Loading fails with a ConfigError whose message names every fragment. */
function rejects(env: Record<string, string>, ...fragments: string[]): void {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
      for (const fragment of fragments) assert.ok(error.message.includes(fragment), `"${error.message}" does not name ${fragment}`);
      return true;
    },
  );
}

describe('SOCIALACCOUNT_PROVIDERS', () => {
  it('reads apps in the reference\'s shape, in configuration order', () => {
    const config = loadConfig(providers({ openid_connect: { APPS: [KEYCLOAK, AUTH0] } }));
    assert.equal(config.social.enabled, true);
    assert.deepEqual(
      config.social.apps.map((a) => [a.type, a.id, a.name, a.clientId]),
      [
        ['openid_connect', 'keycloak', 'Keycloak', 'kc-client'],
        ['openid_connect', 'auth0', 'Auth0', 'a0-client'],
      ],
    );
    assert.equal(config.social.apps[0]!.common.pkce, true, 'PKCE is on unless an app turns it off');
  });

  it('turns PKCE off only for an explicit oauth_pkce_enabled=false (the app\'s, else the provider level\'s)', () => {
    const app = (id: string, settings: Record<string, unknown>) => ({ ...KEYCLOAK, provider_id: id, client_id: `${id}-client`, settings: { ...KEYCLOAK.settings, ...settings } });
    const pkce = (value: unknown) => loadConfig(providers(value)).social.apps.map((a) => [a.id, a.common.pkce]);
    assert.deepEqual(pkce({ openid_connect: { APPS: [app('unset', {}), app('on', { oauth_pkce_enabled: true }), app('off', { oauth_pkce_enabled: false })] } }), [
      ['unset', true],
      ['on', true],
      ['off', false],
    ]);
    assert.deepEqual(pkce({ openid_connect: { OAUTH_PKCE_ENABLED: false, APPS: [app('unset', {}), app('on', { oauth_pkce_enabled: true })] } }), [
      ['unset', false],
      ['on', true],
    ]);
    rejects(providers({ openid_connect: { APPS: [app('text', { oauth_pkce_enabled: 'false' })] } }), 'oauth_pkce_enabled', 'true or false');
  });

  it('is off without providers, and its defaults are the reference\'s', () => {
    const config = loadConfig({ SECRET_KEY: SECRET, ACCOUNT_EMAIL_VERIFICATION: 'mandatory' });
    assert.equal(config.social.enabled, false);
    const on = loadConfig({ ...providers({ openid_connect: { APPS: [KEYCLOAK] } }), ACCOUNT_EMAIL_VERIFICATION: 'mandatory' });
    assert.equal(on.social.autoSignup, true);
    assert.equal(on.social.emailAuthentication, false);
    assert.equal(on.social.emailAuthenticationAutoConnect, false);
    assert.equal(on.social.emailVerification, 'mandatory', 'follows ACCOUNT_EMAIL_VERIFICATION');
    assert.equal(on.social.storeTokens, false);
    assert.equal(on.social.requestsTimeout, 5);
    assert.equal(on.social.openIdConnectUrlPrefix, 'oidc');
  });

  it('reads a JSON file when given a path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'social-config-'));
    try {
      const file = join(dir, 'providers.json');
      writeFileSync(file, JSON.stringify({ openid_connect: { APPS: [AUTH0] } }));
      const config = loadConfig({ SECRET_KEY: SECRET, SOCIALACCOUNT_PROVIDERS: file });
      assert.deepEqual(config.social.apps.map((a) => a.id), ['auth0']);
      rejects({ SECRET_KEY: SECRET, SOCIALACCOUNT_PROVIDERS: join(dir, 'missing.json') }, 'SOCIALACCOUNT_PROVIDERS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migrates the reference\'s legacy SERVERS form', () => {
    const config = loadConfig(providers({ openid_connect: { SERVERS: [{ id: 'legacy', name: 'Legacy', server_url: 'https://legacy.example.com', APP: { client_id: 'c', secret: 's' } }] } }));
    assert.deepEqual(config.social.apps.map((a) => [a.id, a.name]), [['legacy', 'Legacy']]);
  });

  it('stops the start with a message naming the provider and the field', () => {
    rejects(providers({ facebookk: { APP: { client_id: 'x' } } }), 'SOCIALACCOUNT_PROVIDERS', 'facebookk', 'unknown provider');
    rejects(providers({ openid_connect: { APPS: [{ ...KEYCLOAK, settings: {} }] } }), 'keycloak', 'server_url', 'required');
    rejects(providers({ openid_connect: { APPS: [{ ...KEYCLOAK, settings: { server_url: 'http://sso.example.com' } }] } }), 'keycloak', 'server_url', 'https');
    rejects(providers({ openid_connect: { APPS: [{ ...KEYCLOAK, client_id: '' }] } }), 'keycloak', 'client_id');
    rejects(providers({ openid_connect: { APPS: [{ ...KEYCLOAK, provider_id: undefined }] } }), 'APPS[0]', 'provider_id');
    rejects(providers({ openid_connect: { APPS: [{ ...KEYCLOAK, provider_id: 'a/b' }] } }), 'provider_id');
    rejects(providers({ openid_connect: { APPS: [{ ...KEYCLOAK, settings: { ...KEYCLOAK.settings, server_ulr: 'x' } }] } }), 'keycloak', 'server_ulr');
    rejects(providers({ openid_connect: { APPS: [{ ...KEYCLOAK, settings: { ...KEYCLOAK.settings, token_auth_method: 'private_key_jwt' } }] } }), 'token_auth_method');
    rejects(providers({ openid_connect: { APPS: [KEYCLOAK, { ...AUTH0, provider_id: 'keycloak' }] } }), 'keycloak', 'share');
    rejects(providers({ openid_connect: { APPS: 'nope' } }), 'openid_connect.APPS');
    rejects({ SECRET_KEY: SECRET, SOCIALACCOUNT_PROVIDERS: '{nope' }, 'SOCIALACCOUNT_PROVIDERS', 'JSON');
    const appleKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    const appleApp = { client_id: 'com.example', secret: 'KEYID', key: 'TEAMID', settings: { certificate_key: appleKey } };
    assert.equal(loadConfig(providers({ apple: { APP: appleApp } })).social.apps[0]!.id, 'apple');
    rejects(providers({ apple: { APP: { ...appleApp, key: '' } } }), 'apple.APP', 'key', 'team id');
    rejects(providers({ apple: { APP: { ...appleApp, settings: { certificate_key: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' } } } }), 'apple.APP', 'certificate_key');
    rejects(providers({ apple: { APP: { ...appleApp, settings: {} } } }), 'apple.APP', 'certificate_key', 'required');
    rejects(providers({ github: { GITHUB_URL: 'ftp://github.example.com', APP: { client_id: 'x' } } }), 'github', 'GITHUB_URL');
    rejects(providers({ github: { APP: { client_id: 'x' }, SERVER_URL: 'https://x.example.com' } }), 'github', 'SERVER_URL');
  });

  it('takes the reference\'s FETCH_USERINFO for Google, so a migrated configuration starts', () => {
    const config = loadConfig(providers({ google: { FETCH_USERINFO: true, APP: { client_id: 'g', secret: 's' } } }));
    assert.equal(config.social.apps[0]!.options.fetch_userinfo, true);
    rejects(providers({ google: { FETCH_USERINFO: 'yes', APP: { client_id: 'g', secret: 's' } } }), 'google', 'FETCH_USERINFO');
  });

  it('checks the settings around it', () => {
    const oidc = providers({ openid_connect: { APPS: [KEYCLOAK] } });
    rejects({ ...oidc, SOCIALACCOUNT_EMAIL_VERIFICATION: 'maybe' }, 'SOCIALACCOUNT_EMAIL_VERIFICATION');
    rejects({ ...oidc, SOCIALACCOUNT_ONLY: 'true', ACCOUNT_EMAIL_VERIFICATION: 'mandatory' }, 'SOCIALACCOUNT_ONLY', 'ACCOUNT_EMAIL_VERIFICATION');
    rejects({ ...oidc, SOCIALACCOUNT_REQUESTS_TIMEOUT: '0' }, 'SOCIALACCOUNT_REQUESTS_TIMEOUT');
    rejects({ ...oidc, SOCIALACCOUNT_EMAIL_REQUIRED: 'false', SOCIALACCOUNT_EMAIL_VERIFICATION: 'mandatory' }, 'SOCIALACCOUNT_EMAIL_VERIFICATION');
    rejects({ ...oidc, NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', HEADLESS_FRONTEND_URLS: JSON.stringify(Object.fromEntries(['account_confirm_email', 'account_reset_password', 'account_reset_password_from_key', 'account_signup'].map((k) => [k, `https://app.example.com/${k}/{key}`]))) }, 'socialaccount_login_error');
  });
});

describe('GET /config and the flows with providers', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', providers({ openid_connect: { APPS: [KEYCLOAK, AUTH0] } }));
  });
  after(async () => {
    await server?.close();
  });

  it('lists the providers sorted by name, in the reference\'s shape, for both clients', async () => {
    for (const kind of ['browser', 'app'] as const) {
      const response = await server.client(kind).get('/config');
      assert.equal(response.status, 200);
      assert.deepEqual(response.body.data.socialaccount, {
        providers: [
          {
            id: 'auth0',
            name: 'Auth0',
            flows: ['provider_redirect', 'provider_token'],
            client_id: 'a0-client',
            openid_configuration_url: 'https://tenant.auth0.com/.well-known/openid-configuration',
          },
          {
            id: 'keycloak',
            name: 'Keycloak',
            flows: ['provider_redirect', 'provider_token'],
            client_id: 'kc-client',
            openid_configuration_url: 'https://sso.example.com/realms/main/.well-known/openid-configuration',
          },
        ],
      });
    }
  });

  it('offers the redirect flow to browsers only, with provider ids in configuration order', async () => {
    const browser = await server.client('browser').get('/auth/session');
    assert.equal(browser.status, 401);
    assert.deepEqual(flowIds(browser.body), ['login', 'signup', 'provider_redirect', 'provider_token']);
    assert.deepEqual(browser.body.data.flows[2].providers, ['keycloak', 'auth0']);
    const app = await server.client('app').get('/auth/session');
    assert.deepEqual(flowIds(app.body), ['login', 'signup', 'provider_token']);
    assert.deepEqual(app.body.data.flows[2].providers, ['keycloak', 'auth0']);
  });
});

describe('GET /config without social login', () => {
  it('has no socialaccount section', async () => {
    const server = await startTestServer('sqlite');
    try {
      const response = await server.client('app').get('/config');
      assert.equal(response.body.data.socialaccount, undefined);
      assert.deepEqual(flowIds((await server.client('browser').get('/auth/session')).body), ['login', 'signup']);
    } finally {
      await server.close();
    }
  });
});
