import { readBool, readInt, type Env } from './env.js';

/** Phone verification, under the reference's ACCOUNT_PHONE_VERIFICATION_* names. */
export interface PhoneSettings {
  /** Unverified numbers are verified by SMS code at signup and at login. */
  verificationEnabled: boolean;
  maxAttempts: number;
  /** Seconds a code stays valid. */
  timeout: number;
  supportsResend: boolean;
}

export function readPhoneSettings(env: Env): { phone: PhoneSettings } {
  return {
    phone: {
      verificationEnabled: readBool(env, 'ACCOUNT_PHONE_VERIFICATION_ENABLED', true),
      maxAttempts: readInt(env, 'ACCOUNT_PHONE_VERIFICATION_MAX_ATTEMPTS', 3, { min: 1, max: 100 }),
      timeout: readInt(env, 'ACCOUNT_PHONE_VERIFICATION_TIMEOUT', 900, { min: 30, max: 86400 }),
      supportsResend: readBool(env, 'ACCOUNT_PHONE_VERIFICATION_SUPPORTS_RESEND', true),
    },
  };
}
