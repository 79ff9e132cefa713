import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const SECRET = 'test-secret-key-that-is-long-enough-0123456789';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Asserts that loading `env` fails with a ConfigError naming `variable`. */
function rejects(env: Record<string, string>, variable: string): void {
  assert.throws(
    () => loadConfig({ SECRET_KEY: SECRET, ...env }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
      assert.ok(error.message.includes(variable), `"${error.message}" does not name ${variable}`);
      return true;
    },
  );
}

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.production, false);
    assert.equal(config.secretKey, '', 'the entry point supplies a development key');
    assert.deepEqual(config.account.loginMethods, ['email']);
    assert.equal(config.account.emailVerification, 'optional');
    assert.equal(config.account.signupOpen, true);
    assert.equal(config.account.preventEnumeration, true);
    assert.equal(config.session.cookieName, 'sessionid');
    assert.ok(config.databaseUrl.startsWith('sqlite:'));
    assert.ok(config.account.rateLimits, 'rate limits are on by default');
  });

  it('reads the settings it is given', () => {
    const config = loadConfig({
      SECRET_KEY: SECRET,
      PORT: '9001',
      HOST: '0.0.0.0',
      ACCOUNT_LOGIN_METHODS: 'username,email',
      ACCOUNT_SIGNUP_FIELDS: 'email*,username*,password1*,password2*',
      ACCOUNT_EMAIL_VERIFICATION: 'MANDATORY',
      ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'true',
      ACCOUNT_SIGNUP_OPEN: 'false',
      ACCOUNT_PASSWORD_MIN_LENGTH: '12',
      SESSION_COOKIE_AGE: '3600',
      HEADLESS_FRONTEND_URLS: JSON.stringify({ account_confirm_email: 'https://app.example.com/verify/{key}' }),
      DATABASE_URL: 'postgres://u@db.example.com:5432/auth',
    });
    assert.equal(config.port, 9001);
    assert.equal(config.host, '0.0.0.0');
    assert.deepEqual(config.account.loginMethods, ['username', 'email']);
    assert.deepEqual(config.account.signupFields, { email: { required: true }, username: { required: true }, password: { required: true } });
    assert.equal(config.account.emailVerification, 'mandatory');
    assert.equal(config.account.emailVerificationByCode, true);
    assert.equal(config.account.signupOpen, false);
    assert.equal(config.account.passwordMinLength, 12);
    assert.equal(config.session.cookieAge, 3600);
    assert.equal(config.frontendUrls.account_confirm_email, 'https://app.example.com/verify/{key}');
  });

  it('password hashing takes all of libuv\'s pool threads but one', () => {
    assert.equal(loadConfig({ SECRET_KEY: SECRET }).passwordHashingConcurrency, 3);
    assert.equal(loadConfig({ SECRET_KEY: SECRET, UV_THREADPOOL_SIZE: '8' }).passwordHashingConcurrency, 7);
    assert.equal(loadConfig({ SECRET_KEY: SECRET, UV_THREADPOOL_SIZE: '1' }).passwordHashingConcurrency, 1);
    rejects({ UV_THREADPOOL_SIZE: 'many' }, 'UV_THREADPOOL_SIZE');
  });

  it('ACCOUNT_RATE_LIMITS=false turns rate limiting off', () => {
    assert.equal(loadConfig({ ACCOUNT_RATE_LIMITS: 'false' }).account.rateLimits, false);
  });

  it('the legacy ACCOUNT_LOGIN_ATTEMPTS_LIMIT rebuilds the login_failed key rule', () => {
    const limits = loadConfig({ ACCOUNT_LOGIN_ATTEMPTS_LIMIT: '2', ACCOUNT_LOGIN_ATTEMPTS_TIMEOUT: '60' }).account.rateLimits;
    assert.ok(limits);
    assert.deepEqual(limits.login_failed.rules.find((r) => r.per === 'key'), { amount: 2, periodSeconds: 60, per: 'key' });
  });

  const bad: Array<[string, Record<string, string>]> = [
    ['ACCOUNT_EMAIL_VERIFICATION', { ACCOUNT_EMAIL_VERIFICATION: 'maybe' }],
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['ACCOUNT_RATE_LIMITS', { ACCOUNT_RATE_LIMITS: '{not json' }],
    ['ACCOUNT_RATE_LIMITS', { ACCOUNT_RATE_LIMITS: '{"login": "lots"}' }],
    ['ACCOUNT_RATE_LIMITS', { ACCOUNT_RATE_LIMITS: '{"no_such_action": "1/m/ip"}' }],
    ['ACCOUNT_RATE_LIMITS', { ACCOUNT_RATE_LIMITS: '{not json', ACCOUNT_EMAIL_CONFIRMATION_COOLDOWN: '60' }],
    ['ACCOUNT_LOGIN_ATTEMPTS_LIMIT', { ACCOUNT_LOGIN_ATTEMPTS_LIMIT: 'five' }],
    ['ACCOUNT_LOGIN_METHODS', { ACCOUNT_LOGIN_METHODS: 'email,fingerprint' }],
    ['ACCOUNT_SIGNUP_FIELDS', { ACCOUNT_SIGNUP_FIELDS: 'email*,shoe_size' }],
    ['ACCOUNT_SIGNUP_FIELDS', { ACCOUNT_LOGIN_METHODS: 'username', ACCOUNT_SIGNUP_FIELDS: 'email*,password1*' }],
    ['ACCOUNT_EMAIL_VERIFICATION', { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', ACCOUNT_LOGIN_METHODS: 'username', ACCOUNT_SIGNUP_FIELDS: 'username*,email,password1*' }],
    ['ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED', { ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'sometimes' }],
    ['ACCOUNT_SIGNUP_OPEN', { ACCOUNT_SIGNUP_OPEN: 'perhaps' }],
    ['ACCOUNT_PASSWORD_MIN_LENGTH', { ACCOUNT_PASSWORD_MIN_LENGTH: '0' }],
    ['SESSION_COOKIE_AGE', { SESSION_COOKIE_AGE: '1.5' }],
    ['HEADLESS_CLIENTS', { HEADLESS_CLIENTS: 'browser,fax' }],
    ['HEADLESS_FRONTEND_URLS', { HEADLESS_FRONTEND_URLS: '[1,2]' }],
    ['HEADLESS_FRONTEND_URLS', { HEADLESS_FRONTEND_URLS: JSON.stringify({ account_confirm_email: 'https://app.example.com/verify?key={key}' }) }],
    ['HEADLESS_FRONTEND_URLS', { HEADLESS_FRONTEND_URLS: JSON.stringify({ no_such_page: 'https://app.example.com/' }) }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/db' }],
    ['SMTP_URL', { SMTP_URL: 'ftp://mail.example.com' }],
    ['TRUSTED_PROXY_COUNT', { TRUSTED_PROXY_COUNT: '-1' }],
    ['SECRET_KEY', { SECRET_KEY: 'short' }],
    ['SECRET_KEY', { NODE_ENV: 'production', SECRET_KEY: '' }],
  ];
  for (const [variable, env] of bad) {
    it(`refuses ${JSON.stringify(env)}, naming ${variable}`, () => rejects(env, variable));
  }
});

describe('start-up with a bad configuration', () => {
  function start(env: Record<string, string>) {
    const dataDir = mkdtempSync(join(tmpdir(), 'auth-config-'));
    try {
      const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, PORT: '0', ...env };
      return spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: childEnv, encoding: 'utf8', timeout: 20_000 });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('NODE_ENV=production without SECRET_KEY exits non-zero with one line naming SECRET_KEY', () => {
    const result = start({ NODE_ENV: 'production' });
    assert.equal(result.error, undefined);
    assert.notEqual(result.status, 0);
    assert.notEqual(result.status, null, 'it exits by itself');
    const lines = result.stderr.trim().split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `expected one line, got:\n${result.stderr}`);
    assert.match(lines[0]!, /SECRET_KEY/);
    assert.equal(result.stdout.trim(), '');
  });

  it('a bad ACCOUNT_RATE_LIMITS stops the start with one line naming it', () => {
    const result = start({ ACCOUNT_RATE_LIMITS: '{"login": "lots"}' });
    assert.notEqual(result.status, 0);
    const lines = result.stderr.trim().split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `expected one line, got:\n${result.stderr}`);
    assert.match(lines[0]!, /ACCOUNT_RATE_LIMITS/);
  });
});
