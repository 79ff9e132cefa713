import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.js';
import { SECRET, rejects } from './support.js';

// The MFA_* settings: the reference's names and defaults, plus the WebAuthn
// relying party; every bad value stops the start naming its variable.

describe('MFA settings', () => {
  it('has the reference\'s defaults', () => {
    const { mfa, account } = loadConfig({});
    assert.equal(mfa.enabled, true);
    assert.deepEqual(mfa.supportedTypes, ['recovery_codes', 'totp']);
    assert.deepEqual(mfa.totp, { period: 30, digits: 6, tolerance: 0, issuer: 'Headless Auth', insecureBypassCode: undefined });
    assert.deepEqual(mfa.recoveryCodes, { count: 10, digits: 8, showOnce: false });
    assert.equal(mfa.allowUnverifiedEmail, false);
    assert.equal(mfa.passkeyLogin, false);
    assert.equal(mfa.passkeySignup, false);
    assert.equal(mfa.trust.enabled, false);
    assert.deepEqual(mfa.trust.cookie, { name: 'mfa_trusted', age: 14 * 86400, domain: undefined, path: '/', secure: false, httpOnly: true, sameSite: 'lax' });
    assert.deepEqual(mfa.webauthn, { rpId: 'localhost', rpName: 'Headless Auth', origins: ['http://localhost:3000'], allowInsecureOrigin: false, timeout: 300_000 });
    assert.equal(account.loginTimeout, 900);
  });

  it('reads what it is given; the WebAuthn relying party follows FRONTEND_URL', () => {
    const { mfa } = loadConfig({
      SECRET_KEY: SECRET,
      FRONTEND_URL: 'https://app.example.com/spa',
      MFA_SUPPORTED_TYPES: '["webauthn","totp"]',
      MFA_PASSKEY_LOGIN_ENABLED: 'true',
      MFA_TOTP_ISSUER: 'Example',
      MFA_TRUST_COOKIE_AGE: '3600',
      SESSION_COOKIE_SECURE: 'true',
    });
    assert.deepEqual(mfa.supportedTypes, ['webauthn', 'totp'], 'in the order given, as /config echoes it');
    assert.equal(mfa.passkeyLogin, true);
    assert.equal(mfa.totp.issuer, 'Example');
    assert.deepEqual(mfa.webauthn.origins, ['https://app.example.com']);
    assert.equal(mfa.webauthn.rpId, 'app.example.com');
    assert.equal(mfa.trust.cookie.age, 3600);
    assert.equal(mfa.trust.cookie.secure, true, 'the trust cookie follows the session cookie');
    const parent = loadConfig({ SECRET_KEY: SECRET, MFA_WEBAUTHN_RP_ID: 'example.com', MFA_WEBAUTHN_ORIGINS: 'https://app.example.com,https://admin.example.com' }).mfa.webauthn;
    assert.equal(parent.rpId, 'example.com');
    assert.deepEqual(parent.origins, ['https://app.example.com', 'https://admin.example.com']);
  });

  it('passkey login and signup need webauthn among the types', () => {
    const { mfa } = loadConfig({ MFA_PASSKEY_LOGIN_ENABLED: 'true', MFA_PASSKEY_SIGNUP_ENABLED: 'true' });
    assert.equal(mfa.passkeyLogin, false);
    assert.equal(mfa.passkeySignup, false);
  });

  it('refuses bad values, naming the variable', () => {
    rejects({ MFA_SUPPORTED_TYPES: 'totp,sms' }, 'MFA_SUPPORTED_TYPES');
    rejects({ MFA_SUPPORTED_TYPES: '["totp"' }, 'MFA_SUPPORTED_TYPES');
    rejects({ MFA_SUPPORTED_TYPES: '[]' }, 'MFA_SUPPORTED_TYPES');
    rejects({ MFA_TOTP_DIGITS: '4' }, 'MFA_TOTP_DIGITS');
    rejects({ MFA_TOTP_PERIOD: 'thirty' }, 'MFA_TOTP_PERIOD');
    rejects({ MFA_TOTP_TOLERANCE: '-1' }, 'MFA_TOTP_TOLERANCE');
    rejects({ MFA_RECOVERY_CODE_COUNT: '51' }, 'MFA_RECOVERY_CODE_COUNT');
    rejects({ MFA_RECOVERY_CODE_DIGITS: '5' }, 'MFA_RECOVERY_CODE_DIGITS');
    rejects({ MFA_TRUST_ENABLED: 'perhaps' }, 'MFA_TRUST_ENABLED');
    rejects({ MFA_TRUST_COOKIE_SAMESITE: 'loose' }, 'MFA_TRUST_COOKIE_SAMESITE');
    rejects({ MFA_TOTP_INSECURE_BYPASS_CODE: 'abc' }, 'MFA_TOTP_INSECURE_BYPASS_CODE');
    rejects({ MFA_WEBAUTHN_ORIGINS: 'app.example.com' }, 'MFA_WEBAUTHN_ORIGINS');
    rejects({ MFA_WEBAUTHN_ORIGINS: 'https://app.example.com/path' }, 'MFA_WEBAUTHN_ORIGINS');
    rejects({ MFA_WEBAUTHN_ORIGINS: 'https://app.example.com', MFA_WEBAUTHN_RP_ID: 'other.example' }, 'MFA_WEBAUTHN_ORIGINS');
    rejects({ MFA_WEBAUTHN_RP_ID: 'https://example.com' }, 'MFA_WEBAUTHN_RP_ID');
    rejects({ ACCOUNT_LOGIN_TIMEOUT: '10' }, 'ACCOUNT_LOGIN_TIMEOUT');
  });

  it('refuses the switches that turn a check off in production', () => {
    const production = { NODE_ENV: 'production', FRONTEND_URL: 'https://app.example.com', SMTP_URL: 'smtp://mail.example.com:25' };
    assert.equal(loadConfig({ SECRET_KEY: SECRET, ...production }).mfa.enabled, true);
    rejects({ ...production, MFA_TOTP_INSECURE_BYPASS_CODE: '123456' }, 'MFA_TOTP_INSECURE_BYPASS_CODE');
    rejects({ ...production, MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN: 'true' }, 'MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN');
  });
});
