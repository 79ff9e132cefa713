import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/config.js';
import { SECRET } from './support.js';

// docs/settings.md promises every setting in one table. Loading the configuration
// through an environment that records each name asked for, in the shapes
// that turn on the optional parts, finds a setting someone added without a
// row for it.

/** The variable names in the first column of docs/settings.md's tables (a cell may name several). */
function documentedNames(): Set<string> {
  const readme = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
  const names = new Set<string>();
  for (const line of readme.split('\n')) {
    const first = /^\| ([^|]+) \|/.exec(line)?.[1] ?? '';
    for (const [, name] of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(name!);
  }
  return names;
}

/** The names loadConfig reads from `env`, asked for or tested. */
function namesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name);
    },
    has(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.has(target, name);
    },
  });
  loadConfig(recording);
  return read;
}

const PROVIDERS = {
  openid_connect: { APPS: [{ provider_id: 'idp', name: 'IdP', client_id: 'c', secret: 's', settings: { server_url: 'https://idp.example' } }] },
  github: { APPS: [{ client_id: 'g', secret: 'gs' }] },
};

const SHAPES: Record<string, Record<string, string>> = {
  'the defaults': { SECRET_KEY: SECRET },
  'production with PostgreSQL, Redis, SMTP and SMS': {
    NODE_ENV: 'production',
    SECRET_KEY: SECRET,
    SECRET_KEY_FALLBACKS: `${SECRET}-old`,
    FRONTEND_URL: 'https://app.example',
    SMTP_URL: 'smtp://mail.example:587',
    DATABASE_URL: 'postgres://db.example/auth',
    REDIS_URL: 'redis://cache.example:6379',
    SMS_BACKEND: 'webhook',
    SMS_WEBHOOK_URL: 'https://sms.example/send',
    SMS_WEBHOOK_SECRET: 'sms-secret-long-enough-0123456789',
    ACCOUNT_PHONE_VERIFICATION_ENABLED: 'true',
    METRICS_PORT: '9100',
  },
  'JWT tokens, login by code, MFA with WebAuthn and trust, social login': {
    SECRET_KEY: SECRET,
    HEADLESS_TOKEN_STRATEGY: 'jwt',
    HEADLESS_JWT_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true',
    ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'true',
    ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: 'true',
    MFA_SUPPORTED_TYPES: 'recovery_codes,totp,webauthn',
    MFA_PASSKEY_LOGIN_ENABLED: 'true',
    MFA_TRUST_ENABLED: 'true',
    SOCIALACCOUNT_PROVIDERS: JSON.stringify(PROVIDERS),
  },
};

describe('the settings table in docs/settings.md', () => {
  const documented = documentedNames();
  for (const [shape, env] of Object.entries(SHAPES)) {
    it(`documents every variable read for ${shape}`, () => {
      const read = namesRead(env);
      assert.ok(read.size > 20, `only ${read.size} names were read: the recording environment missed the reads`);
      const missing = [...read].filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name) && !documented.has(name));
      assert.deepEqual(missing, [], 'settings without a row in docs/settings.md');
    });
  }
});
