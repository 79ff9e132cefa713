import { createPrivateKey } from 'node:crypto';
import type { RateLimitRule } from './rate-limits.js';
import { ConfigError, readBool, readEnum, readInt, readJsonObject, readOptional, type Env } from './env.js';
import { readResourceServers, type ResourceServerSetting } from './idp-resource-servers.js';
import { readIdpRegistrationSettings, type IdpRegistrationSettings } from './idp-registration.js';

// The OpenID provider (allauth.idp.oidc), off unless IDP_OIDC_ENABLED: the
// reference's IDP_OIDC_* settings under their names and with its defaults.

export interface UserCodeFormat {
  /** Characters of the code, dashes excluded. */
  length: number;
  /** Digits only instead of the 20 consonants of RFC 8628 section 6.1. */
  numeric: boolean;
  /** Groups of about equal length joined by dashes. */
  dashed: boolean;
}

export interface IdpSettings {
  enabled: boolean;
  /** IDP_OIDC_PRIVATE_KEY: the PEM key ID tokens (and JWT access tokens) are signed with; RSA or EC. */
  privateKeyPem: string | null;
  /** IDP_OIDC_ISSUER: fixes the issuer (required in production); unset, as in the reference, it is the origin the request came to. */
  issuer: string | null;
  /** Seconds; the reference's fixed five minutes. */
  idTokenExpiresIn: number;
  accessTokenExpiresIn: number;
  accessTokenFormat: 'opaque' | 'jwt';
  authorizationCodeExpiresIn: number;
  rotateRefreshToken: boolean;
  /** Seconds a refresh token (and its grant) lives; not a reference setting (its refresh tokens never expire). */
  refreshTokenExpiresIn: number;
  deviceCodeExpiresIn: number;
  deviceCodeInterval: number;
  userCodeFormat: UserCodeFormat;
  /** Per-IP limit on device user code attempts: [count, seconds], or null for none. */
  deviceUserCodeLimit: { count: number; seconds: number } | null;
  /** Rules on wrong client secrets, per client id (`key`) and per IP; empty for none. */
  clientAuthFailedLimits: RateLimitRule[];
  rpInitiatedLogoutAsksForOpLogout: boolean;
  /** IDP_OIDC_USERINFO_ENDPOINT: an external userinfo URL announced in discovery; the built-in one is then off. */
  userinfoEndpoint: string | null;
  /** IDP_OIDC_BACKCHANNEL_LOGOUT_ALLOW_PRIVATE: back-channel logout URIs may reach private, loopback and link-local addresses (off: no SSRF through a client). */
  backchannelLogoutAllowPrivate: boolean;
  /** IDP_OIDC_RESOURCE_SERVERS: the APIs access tokens may be restricted to (RFC 8707). */
  resourceServers: ResourceServerSetting[];
  /** Registration, client ID metadata documents, protected resources (idp-registration.ts). */
  dynamicClients: IdpRegistrationSettings;
}

function readUserCodeFormat(env: Env): UserCodeFormat {
  const raw = readJsonObject(env, 'IDP_OIDC_USER_CODE_FORMAT') ?? {};
  for (const key of Object.keys(raw)) {
    if (!['length', 'numeric', 'dashed'].includes(key)) throw new ConfigError(`IDP_OIDC_USER_CODE_FORMAT: unknown key "${key}"; allowed: length, numeric, dashed`);
  }
  const numeric = raw.numeric ?? false;
  const dashed = raw.dashed ?? true;
  if (typeof numeric !== 'boolean' || typeof dashed !== 'boolean') throw new ConfigError('IDP_OIDC_USER_CODE_FORMAT: numeric and dashed are true or false');
  const length = raw.length ?? (numeric ? 9 : 8);
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 6 || length > 20) {
    throw new ConfigError('IDP_OIDC_USER_CODE_FORMAT: length is an integer from 6 to 20');
  }
  return { length, numeric, dashed };
}

const ACTIONS = ['device_user_code', 'client_auth_failed'];
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** Rules "amount/period/per" joined by commas, each per one of `pers` (the first when left out), or false for none. */
function readRules(action: string, rule: unknown, pers: readonly RateLimitRule['per'][], example: string): RateLimitRule[] {
  if (rule === false) return [];
  const invalid = new ConfigError(`IDP_OIDC_RATE_LIMITS.${action}: expected rules such as "${example}" (per ${pers.join(' or ')}), or false`);
  if (typeof rule !== 'string') throw invalid;
  return rule.split(',').map((text) => {
    const match = /^(\d+)\/(\d*)([smhd])(?:\/(\w+))?$/.exec(text.trim());
    const per = (match?.[4] ?? pers[0]) as RateLimitRule['per'];
    if (!match || !pers.includes(per) || Number(match[1]) < 1) throw invalid;
    return { amount: Number(match[1]), periodSeconds: (match[2] ? Number(match[2]) : 1) * UNIT_SECONDS[match[3] as keyof typeof UNIT_SECONDS], per };
  });
}

/**
 * The reference's default is 5/m/ip for device_user_code; client_auth_failed
 * is ours. IDP_OIDC_RATE_LIMITS overrides either (false: none), or is false
 * for no limits at all.
 */
function readRateLimits(env: Env): Pick<IdpSettings, 'deviceUserCodeLimit' | 'clientAuthFailedLimits'> {
  const raw = readOptional(env, 'IDP_OIDC_RATE_LIMITS');
  if (raw !== undefined && raw.trim().toLowerCase() === 'false') return { deviceUserCodeLimit: null, clientAuthFailedLimits: [] };
  const rules = raw === undefined ? {} : readJsonObject(env, 'IDP_OIDC_RATE_LIMITS')!;
  for (const key of Object.keys(rules)) {
    if (!ACTIONS.includes(key)) throw new ConfigError(`IDP_OIDC_RATE_LIMITS: unknown action "${key}"; allowed: ${ACTIONS.join(', ')}`);
  }
  const deviceRules = readRules('device_user_code', rules.device_user_code ?? '5/m/ip', ['ip'], '5/m/ip');
  if (deviceRules.length > 1) throw new ConfigError('IDP_OIDC_RATE_LIMITS.device_user_code: one rule, such as "5/m/ip"');
  const device = deviceRules[0];
  return {
    deviceUserCodeLimit: device ? { count: device.amount, seconds: device.periodSeconds } : null,
    clientAuthFailedLimits: readRules('client_auth_failed', rules.client_auth_failed ?? '20/m/ip,10/m/key', ['ip', 'key'], '20/m/ip,10/m/key'),
  };
}

function readPrivateKey(env: Env, enabled: boolean): string | null {
  const raw = readOptional(env, 'IDP_OIDC_PRIVATE_KEY');
  if (raw === undefined) {
    if (enabled) throw new ConfigError('IDP_OIDC_PRIVATE_KEY is required when IDP_OIDC_ENABLED is on (a PEM RSA or EC private key)');
    return null;
  }
  // Environment files often carry the PEM on one line with literal \n.
  const pem = raw.includes('\\n') ? raw.replace(/\\n/g, '\n') : raw;
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ec') throw new Error('not RSA or EC');
  } catch {
    throw new ConfigError('IDP_OIDC_PRIVATE_KEY: expected a PEM RSA or EC private key');
  }
  return pem;
}

function readUrl(env: Env, name: string): string | null {
  const raw = readOptional(env, name);
  if (raw === undefined) return null;
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(raw)) throw new ConfigError(`${name}: expected an http(s) URL without query or fragment`);
  return raw.replace(/\/+$/, '');
}

export function readIdpSettings(env: Env, production: boolean, warnings: string[]): IdpSettings {
  const enabled = readBool(env, 'IDP_OIDC_ENABLED', false);
  if (enabled && production) {
    // The login hand-over must reach the real SPA, never the development default.
    if (readOptional(env, 'FRONTEND_URL') === undefined && !('account_login' in (readJsonObject(env, 'HEADLESS_FRONTEND_URLS') ?? {}))) {
      throw new ConfigError('HEADLESS_FRONTEND_URLS: account_login is required when NODE_ENV=production, IDP_OIDC_ENABLED is on and FRONTEND_URL is unset');
    }
    // Unset, the issuer would be whatever Host (or X-Forwarded-Host) a request names: tokens and discovery for any host.
    if (readOptional(env, 'IDP_OIDC_ISSUER') === undefined) {
      throw new ConfigError('IDP_OIDC_ISSUER is required when NODE_ENV=production and IDP_OIDC_ENABLED is on (the provider\'s public URL, e.g. https://auth.example.com)');
    }
  }
  return {
    enabled,
    privateKeyPem: readPrivateKey(env, enabled),
    issuer: readUrl(env, 'IDP_OIDC_ISSUER'),
    idTokenExpiresIn: 300,
    accessTokenExpiresIn: readInt(env, 'IDP_OIDC_ACCESS_TOKEN_EXPIRES_IN', 3600, { min: 10, max: 86400 * 30 }),
    accessTokenFormat: readEnum(env, 'IDP_OIDC_ACCESS_TOKEN_FORMAT', ['opaque', 'jwt'], 'opaque'),
    authorizationCodeExpiresIn: readInt(env, 'IDP_OIDC_AUTHORIZATION_CODE_EXPIRES_IN', 60, { min: 10, max: 600 }),
    rotateRefreshToken: readBool(env, 'IDP_OIDC_ROTATE_REFRESH_TOKEN', true),
    refreshTokenExpiresIn: readInt(env, 'IDP_OIDC_REFRESH_TOKEN_EXPIRES_IN', 90 * 86400, { min: 60 }),
    deviceCodeExpiresIn: readInt(env, 'IDP_OIDC_DEVICE_CODE_EXPIRES_IN', 300, { min: 30, max: 86400 }),
    deviceCodeInterval: readInt(env, 'IDP_OIDC_DEVICE_CODE_INTERVAL', 5, { min: 1, max: 60 }),
    userCodeFormat: readUserCodeFormat(env),
    ...readRateLimits(env),
    rpInitiatedLogoutAsksForOpLogout: readBool(env, 'IDP_OIDC_RP_INITIATED_LOGOUT_ASKS_FOR_OP_LOGOUT', true),
    userinfoEndpoint: readUrl(env, 'IDP_OIDC_USERINFO_ENDPOINT'),
    backchannelLogoutAllowPrivate: readBool(env, 'IDP_OIDC_BACKCHANNEL_LOGOUT_ALLOW_PRIVATE', false),
    resourceServers: readResourceServers(env),
    dynamicClients: readIdpRegistrationSettings(env, enabled && production, warnings),
  };
}
