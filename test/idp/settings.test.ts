import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.js';
import { userCodeMask } from '../../src/idp/device-flow.js';
import { SECRET, rejects } from '../config/support.js';
import { PRIVATE_KEY } from './support.js';

// IDP_OIDC_*: the reference's names and defaults, validated at start-up.

const ON = { IDP_OIDC_ENABLED: 'true', IDP_OIDC_PRIVATE_KEY: PRIVATE_KEY };

describe('OpenID provider settings', () => {
  it('is off by default, with the reference\'s defaults', () => {
    const { idp, frontendUrls } = loadConfig({ SECRET_KEY: SECRET });
    assert.equal(idp.enabled, false);
    assert.equal(idp.accessTokenExpiresIn, 3600);
    assert.equal(idp.accessTokenFormat, 'opaque');
    assert.equal(idp.authorizationCodeExpiresIn, 60);
    assert.equal(idp.rotateRefreshToken, true);
    assert.equal(idp.deviceCodeExpiresIn, 300);
    assert.equal(idp.deviceCodeInterval, 5);
    assert.deepEqual(idp.userCodeFormat, { length: 8, numeric: false, dashed: true });
    assert.deepEqual(idp.deviceUserCodeLimit, { count: 5, seconds: 60 });
    assert.deepEqual(idp.clientAuthFailedLimits, [{ amount: 20, periodSeconds: 60, per: 'ip' }, { amount: 10, periodSeconds: 60, per: 'key' }]);
    assert.equal(idp.rpInitiatedLogoutAsksForOpLogout, true);
    assert.equal(idp.userinfoEndpoint, null);
    assert.equal(frontendUrls.account_login, 'http://localhost:3000/account/login');
  });

  it('reads the settings it is given', () => {
    const { idp } = loadConfig({
      SECRET_KEY: SECRET,
      ...ON,
      IDP_OIDC_ACCESS_TOKEN_FORMAT: 'jwt',
      IDP_OIDC_USER_CODE_FORMAT: '{"numeric": true}',
      IDP_OIDC_RATE_LIMITS: '{"device_user_code": "10/5m/ip", "client_auth_failed": "3/h/key"}',
      IDP_OIDC_ISSUER: 'https://auth.example.com/',
      IDP_OIDC_PRIVATE_KEY: PRIVATE_KEY.replaceAll('\n', '\\n'),
    });
    assert.equal(idp.accessTokenFormat, 'jwt');
    assert.deepEqual(idp.userCodeFormat, { length: 9, numeric: true, dashed: true });
    assert.deepEqual(idp.deviceUserCodeLimit, { count: 10, seconds: 300 });
    assert.deepEqual(idp.clientAuthFailedLimits, [{ amount: 3, periodSeconds: 3600, per: 'key' }]);
    assert.equal(idp.issuer, 'https://auth.example.com');
    assert.match(idp.privateKeyPem!, /^-----BEGIN PRIVATE KEY-----\n/);
    const off = loadConfig({ SECRET_KEY: SECRET, ...ON, IDP_OIDC_RATE_LIMITS: 'false' }).idp;
    assert.equal(off.deviceUserCodeLimit, null);
    assert.deepEqual(off.clientAuthFailedLimits, []);
    assert.deepEqual(loadConfig({ SECRET_KEY: SECRET, ...ON, IDP_OIDC_RATE_LIMITS: '{"client_auth_failed": false}' }).idp.clientAuthFailedLimits, []);
  });

  it('refuses what it cannot use, naming the variable', () => {
    rejects({ IDP_OIDC_ENABLED: 'true' }, 'IDP_OIDC_PRIVATE_KEY');
    rejects({ ...ON, IDP_OIDC_PRIVATE_KEY: 'not a key' }, 'IDP_OIDC_PRIVATE_KEY');
    rejects({ ...ON, IDP_OIDC_ACCESS_TOKEN_FORMAT: 'paseto' }, 'IDP_OIDC_ACCESS_TOKEN_FORMAT');
    rejects({ ...ON, IDP_OIDC_USER_CODE_FORMAT: '{"length": 3}' }, 'IDP_OIDC_USER_CODE_FORMAT');
    rejects({ ...ON, IDP_OIDC_RATE_LIMITS: '{"token": "1/m"}' }, 'IDP_OIDC_RATE_LIMITS');
    rejects({ ...ON, IDP_OIDC_RATE_LIMITS: '{"client_auth_failed": "10/m/user"}' }, 'IDP_OIDC_RATE_LIMITS.client_auth_failed');
    rejects({ ...ON, IDP_OIDC_RATE_LIMITS: '{"device_user_code": "5/m/key"}' }, 'IDP_OIDC_RATE_LIMITS.device_user_code');
    rejects({ ...ON, IDP_OIDC_USERINFO_ENDPOINT: 'ftp://x' }, 'IDP_OIDC_USERINFO_ENDPOINT');
    rejects({ ...ON, HEADLESS_FRONTEND_URLS: '{"account_login": "not a url"}' }, 'HEADLESS_FRONTEND_URLS');
  });

  it('in production: needs the SPA\'s login page and a fixed issuer (issue 33 item 8)', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com', ...ON };
    rejects({ ...production, IDP_OIDC_ISSUER: 'https://auth.example.com', HEADLESS_FRONTEND_URLS: JSON.stringify({ account_confirm_email: 'https://a.example/v/{key}', account_reset_password: 'https://a.example/r', account_reset_password_from_key: 'https://a.example/r/{key}', account_signup: 'https://a.example/s' }) }, 'account_login');
    rejects({ ...production, FRONTEND_URL: 'https://app.example.com' }, 'IDP_OIDC_ISSUER');
    const config = loadConfig({ SECRET_KEY: SECRET, ...production, FRONTEND_URL: 'https://app.example.com', IDP_OIDC_ISSUER: 'https://auth.example.com' });
    assert.equal(config.idp.issuer, 'https://auth.example.com');
  });

  it('masks user codes as the reference groups them', () => {
    assert.equal(userCodeMask({ length: 8, dashed: true }), '****-****');
    assert.equal(userCodeMask({ length: 9, dashed: true }), '***-***-***');
    assert.equal(userCodeMask({ length: 6, dashed: false }), '******');
  });
});
