import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/config.js';
import { SECRET, rejects } from './support.js';
import { RUN_TYPESCRIPT } from '../support/typescript.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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

  it('regression: ACCOUNT_LOGIN_METHODS=email,phone with the default signup fields loads without a warning (issue 13 item 15)', () => {
    const config = loadConfig({ SECRET_KEY: SECRET, ACCOUNT_LOGIN_METHODS: 'email,phone' });
    assert.deepEqual(config.account.loginMethods, ['email', 'phone']);
    assert.deepEqual(config.warnings, []);
  });

  it('warns, as the reference does, when no login method is a required signup field', () => {
    const config = loadConfig({ SECRET_KEY: SECRET, ACCOUNT_LOGIN_METHODS: 'username', ACCOUNT_SIGNUP_FIELDS: 'email*,password1*' });
    assert.equal(config.warnings.length, 1);
    assert.match(config.warnings[0]!, /ACCOUNT_LOGIN_METHODS.*ACCOUNT_SIGNUP_FIELDS/);
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
    ['ACCOUNT_EMAIL_VERIFICATION', { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', ACCOUNT_LOGIN_METHODS: 'username', ACCOUNT_SIGNUP_FIELDS: 'username*,email,password1*' }],
    ['ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED', { ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'sometimes' }],
    ['ACCOUNT_SIGNUP_OPEN', { ACCOUNT_SIGNUP_OPEN: 'perhaps' }],
    ['ACCOUNT_PASSWORD_MIN_LENGTH', { ACCOUNT_PASSWORD_MIN_LENGTH: '0' }],
    ['SESSION_COOKIE_AGE', { SESSION_COOKIE_AGE: '1.5' }],
    ['SESSION_ABSOLUTE_LIFETIME', { SESSION_ABSOLUTE_LIFETIME: '30' }],
    ['CORS_ALLOWED_ORIGINS', { CORS_ALLOWED_ORIGINS: 'https://app.example.com/' }],
    ['CORS_ALLOWED_ORIGINS', { CORS_ALLOWED_ORIGINS: 'app.example.com' }],
    ['CORS_ALLOWED_ORIGINS', { CORS_ALLOWED_ORIGINS: 'HTTPS://APP.EXAMPLE.COM' }],
    ['CORS_ALLOWED_ORIGINS', { CORS_ALLOWED_ORIGINS: '*, https://app.example.com' }],
    ['CORS_ALLOWED_ORIGINS', { CORS_ALLOWED_ORIGINS: 'ftp://files.example.com' }],
    ['SECURE_HSTS_SECONDS', { SECURE_HSTS_SECONDS: 'a year' }],
    ['DATABASE_STATEMENT_TIMEOUT_MS', { DATABASE_STATEMENT_TIMEOUT_MS: '0' }],
    ['DATABASE_CONNECT_TIMEOUT_MS', { DATABASE_CONNECT_TIMEOUT_MS: 'soon' }],
    ['REDIS_COMMAND_TIMEOUT_MS', { REDIS_COMMAND_TIMEOUT_MS: '-5' }],
    ['REDIS_CONNECT_TIMEOUT_MS', { REDIS_CONNECT_TIMEOUT_MS: '1e3' }],
    ['DEPENDENCY_WAIT_SECONDS', { DEPENDENCY_WAIT_SECONDS: 'forever' }],
    ['SECURE_HSTS_INCLUDE_SUBDOMAINS', { SECURE_HSTS_INCLUDE_SUBDOMAINS: 'maybe' }],
    ['SESSION_ABSOLUTE_LIFETIME', { SESSION_ABSOLUTE_LIFETIME: '-1' }],
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

describe('production settings (issue 13 item 6)', () => {
  const production = { NODE_ENV: 'production', FRONTEND_URL: 'https://app.example.com', SMTP_URL: 'smtp://relay.internal:25' };

  it('a complete production configuration loads', () => {
    const config = loadConfig({ SECRET_KEY: SECRET, ...production });
    assert.equal(config.production, true);
    assert.equal(config.mail.smtpUrl, 'smtp://relay.internal:25');
  });

  it('requires FRONTEND_URL, unless HEADLESS_FRONTEND_URLS names every template', () => {
    const { FRONTEND_URL: _, ...withoutFrontend } = production;
    rejects(withoutFrontend, 'FRONTEND_URL');
    rejects({ ...withoutFrontend, HEADLESS_FRONTEND_URLS: '{"account_confirm_email":"https://app.example.com/verify/{key}"}' }, 'FRONTEND_URL');
    const templates = {
      account_confirm_email: 'https://app.example.com/verify/{key}',
      account_reset_password: 'https://app.example.com/reset',
      account_reset_password_from_key: 'https://app.example.com/reset/{key}',
      account_signup: 'https://app.example.com/signup',
    };
    assert.equal(loadConfig({ SECRET_KEY: SECRET, ...withoutFrontend, HEADLESS_FRONTEND_URLS: JSON.stringify(templates) }).frontendUrls.account_signup, templates.account_signup);
  });

  it('requires SMTP_URL unless EMAIL_BACKEND=console is chosen explicitly', () => {
    const { SMTP_URL: _, ...withoutSmtp } = production;
    rejects(withoutSmtp, 'SMTP_URL');
    assert.equal(loadConfig({ SECRET_KEY: SECRET, ...withoutSmtp, EMAIL_BACKEND: 'console' }).mail.smtpUrl, undefined);
    assert.equal(loadConfig({ SECRET_KEY: SECRET, ...withoutSmtp, EMAIL_BACKEND: 'django.core.mail.backends.console.EmailBackend' }).mail.smtpUrl, undefined);
  });

  it('EMAIL_BACKEND must agree with SMTP_URL', () => {
    rejects({ EMAIL_BACKEND: 'smtp' }, 'SMTP_URL');
    rejects({ EMAIL_BACKEND: 'console', SMTP_URL: 'smtp://relay.internal:25' }, 'EMAIL_BACKEND');
    rejects({ EMAIL_BACKEND: 'pigeon' }, 'EMAIL_BACKEND');
  });

  it('requires SMS_BACKEND when phone numbers are in use', () => {
    const phone = { ...production, ACCOUNT_LOGIN_METHODS: 'phone', ACCOUNT_SIGNUP_FIELDS: 'phone*,password1*' };
    rejects(phone, 'SMS_BACKEND');
    assert.equal(loadConfig({ SECRET_KEY: SECRET, ...phone, SMS_BACKEND: 'console' }).sms.backend, 'console');
    // Without phone numbers no SMS is ever sent, so none is needed.
    assert.equal(loadConfig({ SECRET_KEY: SECRET, ...production }).sms.backend, 'console');
  });
});

describe('operations and key rotation settings', () => {
  it('metrics are on, on the public port, by default; METRICS_PORT moves them', () => {
    assert.deepEqual(loadConfig({}).operations, {
      metrics: { enabled: true, port: undefined, host: '127.0.0.1' },
      healthCheckTimeoutMs: 500,
      shutdownDrainDelayMs: 5000,
    });
    const env = { METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_ENABLED: 'true', HEALTH_CHECK_TIMEOUT_MS: '250', SHUTDOWN_DRAIN_DELAY_MS: '0' };
    assert.deepEqual(loadConfig(env).operations, { metrics: { enabled: true, port: 9464, host: '0.0.0.0' }, healthCheckTimeoutMs: 250, shutdownDrainDelayMs: 0 });
    rejects({ METRICS_PORT: 'ninety' }, 'METRICS_PORT');
    rejects({ HEALTH_CHECK_TIMEOUT_MS: '0' }, 'HEALTH_CHECK_TIMEOUT_MS');
    rejects({ SHUTDOWN_DRAIN_DELAY_MS: '-1' }, 'SHUTDOWN_DRAIN_DELAY_MS');
  });

  it('the admin API is off by default; ADMIN_PORT turns it on, on loopback unless ADMIN_HOST says otherwise', () => {
    assert.equal(loadConfig({}).admin.port, undefined);
    const admin = loadConfig({ HOST: '0.0.0.0', ADMIN_PORT: '9100' }).admin;
    assert.deepEqual(admin, { port: 9100, host: '127.0.0.1', console: true });
    assert.equal(loadConfig({ ADMIN_PORT: '9100', ADMIN_HOST: '10.0.0.5', ADMIN_CONSOLE_ENABLED: 'false' }).admin.host, '10.0.0.5');
    rejects({ ADMIN_PORT: '8000' }, 'ADMIN_PORT');
    rejects({ ADMIN_PORT: '9100', METRICS_PORT: '9100' }, 'ADMIN_PORT');
    rejects({ ADMIN_PORT: 'ninety' }, 'ADMIN_PORT');
    rejects({ ADMIN_PORT: '9100', ADMIN_CONSOLE_ENABLED: 'maybe' }, 'ADMIN_CONSOLE_ENABLED');
  });

  it('SECRET_KEY_FALLBACKS takes a JSON array or a comma-separated list of long secrets', () => {
    const old1 = 'old-secret-key-number-one-0123456789abcdef';
    const old2 = 'old-secret-key-number-two-0123456789abcdef';
    assert.deepEqual(loadConfig({}).secretKeyFallbacks, []);
    assert.deepEqual(loadConfig({ SECRET_KEY_FALLBACKS: `${old1}, ${old2}` }).secretKeyFallbacks, [old1, old2]);
    assert.deepEqual(loadConfig({ SECRET_KEY_FALLBACKS: JSON.stringify([old1, old2]) }).secretKeyFallbacks, [old1, old2]);
    rejects({ SECRET_KEY_FALLBACKS: 'short' }, 'SECRET_KEY_FALLBACKS[0]');
    rejects({ SECRET_KEY_FALLBACKS: '["unterminated' }, 'SECRET_KEY_FALLBACKS');
  });
});

describe('start-up with a bad configuration', () => {
  function start(env: Record<string, string>) {
    const dataDir = mkdtempSync(join(tmpdir(), 'auth-config-'));
    try {
      const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, PORT: '0', ...env };
      return spawnSync(process.execPath, [...RUN_TYPESCRIPT, 'src/main.ts'], { cwd: ROOT, env: childEnv, encoding: 'utf8', timeout: 60_000 });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  /** The one line a refused start writes: JSON on stdout, nothing on stderr. */
  function refusal(result: ReturnType<typeof start>): { level: string; msg: string } {
    assert.equal(result.error, undefined);
    assert.notEqual(result.status, 0);
    assert.notEqual(result.status, null, 'it exits by itself');
    const lines = result.stdout.trim().split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `expected one line, got:\n${result.stdout}`);
    assert.equal(result.stderr.trim(), '');
    return JSON.parse(lines[0]!);
  }

  it('NODE_ENV=production without SECRET_KEY exits non-zero with one JSON line naming SECRET_KEY', () => {
    const line = refusal(start({ NODE_ENV: 'production' }));
    assert.equal(line.level, 'fatal');
    assert.match(line.msg, /SECRET_KEY/);
  });

  it('a bad ACCOUNT_RATE_LIMITS stops the start with one JSON line naming it', () => {
    const line = refusal(start({ ACCOUNT_RATE_LIMITS: '{"login": "lots"}' }));
    assert.match(line.msg, /ACCOUNT_RATE_LIMITS/);
  });

  it('regression: NODE_ENV=production without SMTP_URL or FRONTEND_URL refuses to start (issue 13 item 6)', () => {
    const production = { NODE_ENV: 'production', SECRET_KEY: 'production-secret-key-0123456789abcdef' };
    assert.match(refusal(start(production)).msg, /FRONTEND_URL/);
    assert.match(refusal(start({ ...production, FRONTEND_URL: 'https://app.example.com' })).msg, /SMTP_URL/);
  });
});
