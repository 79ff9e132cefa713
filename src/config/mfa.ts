import { ConfigError, readBool, readEnum, readInt, readOptional, readString, type Env } from './env.js';
import { AUTHENTICATOR_TYPES, type AuthenticatorType } from '../domain/authenticator.js';

// Second-factor settings under the reference's MFA_* names, plus what
// WebAuthn needs that the reference takes from the request's Host header:
// the relying party's id and name and the origins allowed to use it.

export interface TrustCookieSettings {
  name: string;
  /** Seconds. */
  age: number;
  domain: string | undefined;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: 'lax' | 'strict' | 'none';
}

export interface MfaSettings {
  enabled: boolean;
  /** In configuration order, as GET /config echoes them. */
  supportedTypes: AuthenticatorType[];
  /** false: no authenticator while an address is unverified, and no new address once MFA is on. */
  allowUnverifiedEmail: boolean;
  totp: {
    period: number;
    digits: number;
    /** Time steps accepted before and after the current one. */
    tolerance: number;
    issuer: string;
    /** A code that always passes (development only). */
    insecureBypassCode: string | undefined;
  };
  recoveryCodes: { count: number; digits: number; showOnce: boolean };
  /** Effective values: false unless webauthn is supported. */
  passkeyLogin: boolean;
  passkeySignup: boolean;
  webauthn: {
    rpId: string;
    rpName: string;
    /** Origins whose WebAuthn responses are accepted. */
    origins: string[];
    /** Skip the origin check (development over plain http). */
    allowInsecureOrigin: boolean;
    /** Milliseconds the browser gives the user to touch the key. */
    timeout: number;
  };
  trust: { enabled: boolean; cookie: TrustCookieSettings };
}

interface Context {
  production: boolean;
  siteName: string;
  /** FRONTEND_URL: where the SPA lives, the default WebAuthn origin. */
  frontendUrl: string;
  session: { cookieSecure: boolean; sameSite: 'lax' | 'strict' | 'none' };
}

/** `["totp","webauthn"]` (the reference's list) or `totp,webauthn`. */
function readTypes(env: Env): AuthenticatorType[] {
  const name = 'MFA_SUPPORTED_TYPES';
  const raw = readOptional(env, name);
  if (raw === undefined) return ['recovery_codes', 'totp'];
  let items: unknown;
  try {
    items = raw.trim().startsWith('[') ? JSON.parse(raw) : raw.split(',').map((s) => s.trim()).filter(Boolean);
  } catch {
    throw new ConfigError(`${name}: expected a JSON array or a comma-separated list of ${AUTHENTICATOR_TYPES.join(', ')}`);
  }
  if (!Array.isArray(items) || items.length === 0) throw new ConfigError(`${name}: expected a non-empty list of ${AUTHENTICATOR_TYPES.join(', ')}`);
  for (const item of items) {
    if (!(AUTHENTICATOR_TYPES as readonly unknown[]).includes(item)) throw new ConfigError(`${name}: "${String(item)}" is not one of ${AUTHENTICATOR_TYPES.join(', ')}`);
  }
  return [...new Set(items as AuthenticatorType[])];
}

function readOrigins(env: Env, fallback: string): string[] {
  const name = 'MFA_WEBAUTHN_ORIGINS';
  const raw = readString(env, name, fallback);
  const origins = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (origins.length === 0) throw new ConfigError(`${name}: expected at least one origin, e.g. https://app.example.com`);
  return origins.map((origin) => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new ConfigError(`${name}: "${origin}" is not a URL; expected origins such as https://app.example.com`);
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
      throw new ConfigError(`${name}: "${origin}" is not an origin (scheme, host and port only, e.g. https://app.example.com)`);
    }
    return url.origin;
  });
}

/** Browsers only use a credential on an origin whose host is the RP id or below it. */
function checkRpId(rpId: string, origins: string[]): void {
  if (!/^[a-z0-9.-]+$/i.test(rpId) || rpId.startsWith('.') || rpId.endsWith('.')) {
    throw new ConfigError(`MFA_WEBAUTHN_RP_ID: expected a domain name such as example.com, got "${rpId}"`);
  }
  for (const origin of origins) {
    const host = new URL(origin).hostname;
    if (host !== rpId && !host.endsWith(`.${rpId}`)) {
      throw new ConfigError(`MFA_WEBAUTHN_ORIGINS: the host of ${origin} is not ${rpId} or below it (MFA_WEBAUTHN_RP_ID)`);
    }
  }
}

export function readMfaSettings(env: Env, ctx: Context): MfaSettings {
  const supportedTypes = readTypes(env);
  const webauthn = supportedTypes.includes('webauthn');
  const frontendOrigin = new URL(ctx.frontendUrl).origin;
  const origins = readOrigins(env, frontendOrigin);
  const rpId = readString(env, 'MFA_WEBAUTHN_RP_ID', new URL(origins[0]!).hostname).toLowerCase();
  checkRpId(rpId, origins);

  const insecureBypassCode = readOptional(env, 'MFA_TOTP_INSECURE_BYPASS_CODE');
  const allowInsecureOrigin = readBool(env, 'MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN', false);
  // Both switch a check off: for a developer's machine, never for production.
  if (ctx.production && insecureBypassCode) throw new ConfigError('MFA_TOTP_INSECURE_BYPASS_CODE is for development and tests only; unset it when NODE_ENV=production');
  if (ctx.production && allowInsecureOrigin) throw new ConfigError('MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN is for development only; unset it when NODE_ENV=production');

  const totpDigits = readInt(env, 'MFA_TOTP_DIGITS', 6, { min: 6, max: 8 });
  if (insecureBypassCode !== undefined && !/^\d+$/.test(insecureBypassCode)) throw new ConfigError('MFA_TOTP_INSECURE_BYPASS_CODE: expected digits');

  return {
    enabled: readBool(env, 'MFA_ENABLED', true),
    supportedTypes,
    allowUnverifiedEmail: readBool(env, 'MFA_ALLOW_UNVERIFIED_EMAIL', false),
    totp: {
      period: readInt(env, 'MFA_TOTP_PERIOD', 30, { min: 10, max: 300 }),
      digits: totpDigits,
      tolerance: readInt(env, 'MFA_TOTP_TOLERANCE', 0, { min: 0, max: 10 }),
      issuer: readString(env, 'MFA_TOTP_ISSUER', ctx.siteName),
      insecureBypassCode,
    },
    recoveryCodes: {
      // The used codes are bits of one integer: at most 50 fit exactly in a JavaScript number.
      count: readInt(env, 'MFA_RECOVERY_CODE_COUNT', 10, { min: 1, max: 50 }),
      digits: readInt(env, 'MFA_RECOVERY_CODE_DIGITS', 8, { min: 6, max: 20 }),
      showOnce: readBool(env, 'MFA_RECOVERY_CODES_SHOW_ONCE', false),
    },
    passkeyLogin: webauthn && readBool(env, 'MFA_PASSKEY_LOGIN_ENABLED', false),
    passkeySignup: webauthn && readBool(env, 'MFA_PASSKEY_SIGNUP_ENABLED', false),
    webauthn: {
      rpId,
      rpName: readString(env, 'MFA_WEBAUTHN_RP_NAME', ctx.siteName),
      origins,
      allowInsecureOrigin,
      timeout: readInt(env, 'MFA_WEBAUTHN_TIMEOUT', 300, { min: 10, max: 600 }) * 1000,
    },
    trust: {
      enabled: readBool(env, 'MFA_TRUST_ENABLED', false),
      cookie: {
        name: readString(env, 'MFA_TRUST_COOKIE_NAME', 'mfa_trusted'),
        age: readInt(env, 'MFA_TRUST_COOKIE_AGE', 14 * 86400, { min: 60, max: 365 * 86400 }),
        domain: readOptional(env, 'MFA_TRUST_COOKIE_DOMAIN'),
        path: readString(env, 'MFA_TRUST_COOKIE_PATH', '/'),
        secure: readBool(env, 'MFA_TRUST_COOKIE_SECURE', ctx.session.cookieSecure),
        httpOnly: readBool(env, 'MFA_TRUST_COOKIE_HTTPONLY', true),
        sameSite: readEnum(env, 'MFA_TRUST_COOKIE_SAMESITE', ['lax', 'strict', 'none'], ctx.session.sameSite),
      },
    },
  };
}
