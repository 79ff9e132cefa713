import { ConfigError, readBool, readInt, readOptional, type Env } from './env.js';

// Settings of password reset, login by code and email management, under the
// reference's names.

export interface PasswordResetSettings {
  byCode: boolean;
  byCodeMaxAttempts: number;
  /** Seconds a reset code (and its pending flow) stays valid. */
  byCodeTimeout: number;
  /** Seconds a reset link stays valid. */
  keyTimeout: number;
  loginOnReset: boolean;
}

export interface LoginByCodeSettings {
  enabled: boolean;
  maxAttempts: number;
  /** Seconds a login code (and its pending flow) stays valid. */
  timeout: number;
  /** New codes one pending login may ask for; 0 turns resend off. */
  maxResends: number;
}

export interface EmailManagementSettings {
  /** Null: no limit. */
  maxAddresses: number | null;
  changeEmail: boolean;
}

// Short-lived codes: a 6-character code must not stay guessable for long.
const CODE_TIMEOUT = { min: 30, max: 600 };
const DEFAULT_RESENDS = 3;

/** true/false, or how many times one pending login may ask for a new code. */
function readResends(env: Env): number {
  const name = 'ACCOUNT_LOGIN_BY_CODE_SUPPORTS_RESEND';
  const raw = readOptional(env, name);
  if (raw === undefined) return DEFAULT_RESENDS;
  if (/^\d+$/.test(raw.trim())) return readInt(env, name, DEFAULT_RESENDS, { min: 0, max: 100 });
  try {
    return readBool(env, name, true) ? DEFAULT_RESENDS : 0;
  } catch {
    throw new ConfigError(`${name}: expected true, false or the number of resends allowed, got "${raw}"`);
  }
}

function readMaxAddresses(env: Env, changeEmail: boolean): number | null {
  const name = 'ACCOUNT_MAX_EMAIL_ADDRESSES';
  const given = readOptional(env, name) === undefined ? null : readInt(env, name, 1, { min: 1, max: 1000 });
  // As in the reference: changing holds the current address plus the one being changed to.
  if (changeEmail && given !== null && given !== 2) {
    throw new ConfigError(`${name}: must be 2 (or unset) when ACCOUNT_CHANGE_EMAIL is on, got ${given}`);
  }
  return changeEmail ? 2 : given;
}

export function readAccountManagement(env: Env): {
  passwordReset: PasswordResetSettings;
  loginByCode: LoginByCodeSettings;
  emailManagement: EmailManagementSettings;
} {
  const changeEmail = readBool(env, 'ACCOUNT_CHANGE_EMAIL', false);
  return {
    passwordReset: {
      byCode: readBool(env, 'ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED', false),
      byCodeMaxAttempts: readInt(env, 'ACCOUNT_PASSWORD_RESET_BY_CODE_MAX_ATTEMPTS', 3, { min: 1, max: 20 }),
      byCodeTimeout: readInt(env, 'ACCOUNT_PASSWORD_RESET_BY_CODE_TIMEOUT', 180, CODE_TIMEOUT),
      // Django's PASSWORD_RESET_TIMEOUT: three days.
      keyTimeout: readInt(env, 'PASSWORD_RESET_TIMEOUT', 259200, { min: 60, max: 30 * 86400 }),
      loginOnReset: readBool(env, 'ACCOUNT_LOGIN_ON_PASSWORD_RESET', false),
    },
    loginByCode: {
      enabled: readBool(env, 'ACCOUNT_LOGIN_BY_CODE_ENABLED', false),
      maxAttempts: readInt(env, 'ACCOUNT_LOGIN_BY_CODE_MAX_ATTEMPTS', 3, { min: 1, max: 20 }),
      timeout: readInt(env, 'ACCOUNT_LOGIN_BY_CODE_TIMEOUT', 180, CODE_TIMEOUT),
      maxResends: readResends(env),
    },
    emailManagement: { maxAddresses: readMaxAddresses(env, changeEmail), changeEmail },
  };
}
