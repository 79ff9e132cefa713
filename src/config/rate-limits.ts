// Parses django-allauth's ACCOUNT_RATE_LIMITS format so existing deployments
// can move their settings over unchanged.

import { ConfigError } from './env.js';

export const ACTIONS = [
  'login',
  'login_failed',
  'signup',
  'reset_password',
  'reset_password_from_key',
  'change_password',
  'manage_email',
  'change_phone',
  'reauthenticate',
  'request_login_code',
  'confirm_email',
  'verify_phone',
  'passkey_login_session',
  'admin_key_failed',
] as const;

export type Action = (typeof ACTIONS)[number];

export type RateLimitPer = 'ip' | 'user' | 'key';

export interface RateLimitRule {
  readonly amount: number;
  readonly periodSeconds: number;
  readonly per: RateLimitPer;
}

/** An action with no rules is not limited. */
export interface ActionRateLimit {
  readonly action: Action;
  readonly rules: readonly RateLimitRule[];
}

export type RateLimitConfig = Readonly<Record<Action, ActionRateLimit>>;

export interface RateLimitOptions {
  /** The reference lets a confirmation code be re-sent every 10 s instead of the 180 s link cooldown. */
  readonly emailVerificationByCode?: boolean;
  /** Legacy ACCOUNT_LOGIN_ATTEMPTS_LIMIT. */
  readonly loginAttemptsLimit?: number;
  /** Legacy ACCOUNT_LOGIN_ATTEMPTS_TIMEOUT, in seconds. */
  readonly loginAttemptsTimeout?: number;
}

// The reference's defaults (allauth/account/app_settings.py, RATE_LIMITS).
export const DEFAULT_RATE_LIMITS: Readonly<Record<Action, string>> = Object.freeze({
  login: '30/m/ip',
  login_failed: '10/m/ip,5/300s/key',
  signup: '20/m/ip',
  reset_password: '20/m/ip,5/m/key',
  reset_password_from_key: '20/m/ip',
  change_password: '5/m/user',
  manage_email: '10/m/user',
  change_phone: '1/m/user',
  reauthenticate: '10/m/user',
  request_login_code: '20/m/ip,3/m/key',
  confirm_email: '1/180s/key',
  verify_phone: '1/30s/key,3/m/ip',
  // Not the reference's: each visitor without a session costs
  // GET /auth/webauthn/login a stored one, so they are counted like logins.
  passkey_login_session: '30/m/ip',
  // Not the reference's: requests to the admin API with a missing, unknown,
  // expired or revoked key.
  admin_key_failed: '10/m/ip',
});

export const CONFIRM_EMAIL_BY_CODE_RATE_LIMIT = '1/10s/key';

const VARIABLE = 'ACCOUNT_RATE_LIMITS';
const FORMAT =
  'expected comma-separated rules "amount/period/per", period an optional integer followed by s, m, h or d, ' +
  'per one of ip, user, key (e.g. "10/m/ip,5/300s/key")';
const DISABLED_VALUES = new Set(['false', '0', 'off']);
const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * Reads ACCOUNT_RATE_LIMITS: unset → defaults; false/0/off → rate limiting
 * off; otherwise a JSON object of action → rule string (false or "" turns the
 * action off), merged over the defaults. Throws on anything else so a typo
 * fails at start-up instead of silently leaving an endpoint unlimited.
 */
export function parseRateLimits(value: string | undefined, opts: RateLimitOptions = {}): RateLimitConfig | false {
  const trimmed = value?.trim() ?? '';
  if (DISABLED_VALUES.has(trimmed.toLowerCase())) return false;

  const sources: Record<Action, string | false> = { ...DEFAULT_RATE_LIMITS };
  if (opts.emailVerificationByCode) sources.confirm_email = CONFIRM_EMAIL_BY_CODE_RATE_LIMIT;
  sources.login_failed = applyLoginAttemptsSettings(opts);
  if (trimmed !== '') Object.assign(sources, parseOverrides(trimmed));

  const config = {} as Record<Action, ActionRateLimit>;
  for (const action of ACTIONS) {
    const source = sources[action];
    const rules = source === false ? [] : parseRules(action, source);
    config[action] = Object.freeze({ action, rules: Object.freeze(rules) });
  }
  return Object.freeze(config);
}

// As in the reference, the legacy settings rebuild login_failed's key rule,
// and a zero limit or timeout turns login_failed off entirely.
function applyLoginAttemptsSettings(opts: RateLimitOptions): string | false {
  const { loginAttemptsLimit: limit, loginAttemptsTimeout: timeout } = opts;
  if (limit === undefined && timeout === undefined) return DEFAULT_RATE_LIMITS.login_failed;
  checkLegacyInteger('ACCOUNT_LOGIN_ATTEMPTS_LIMIT', limit);
  checkLegacyInteger('ACCOUNT_LOGIN_ATTEMPTS_TIMEOUT', timeout);
  if (limit === 0 || timeout === 0) return false;
  return `10/m/ip,${limit ?? 5}/${timeout ?? 300}s/key`;
}

function checkLegacyInteger(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
    throw new ConfigError(`${name}: expected a non-negative integer, got ${String(value)}`);
  }
}

function parseOverrides(json: string): Partial<Record<Action, string | false>> {
  const notAnObject = `${VARIABLE}: expected false or a JSON object mapping action names to rules (${FORMAT})`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ConfigError(notAnObject);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(notAnObject);

  const overrides: Partial<Record<Action, string | false>> = {};
  for (const [name, rule] of Object.entries(parsed)) {
    if (!isAction(name)) {
      throw new ConfigError(`${VARIABLE}: unknown action "${name}"; expected one of ${ACTIONS.join(', ')}`);
    }
    if (rule === false || rule === null || (typeof rule === 'string' && rule.trim() === '')) {
      overrides[name] = false;
    } else if (typeof rule === 'string') {
      overrides[name] = rule;
    } else {
      throw new ConfigError(`${VARIABLE}: action "${name}" has ${JSON.stringify(rule)}; ${FORMAT}, or false to disable it`);
    }
  }
  return overrides;
}

function isAction(name: string): name is Action {
  return (ACTIONS as readonly string[]).includes(name);
}

function parseRules(action: Action, source: string): RateLimitRule[] {
  return source.split(',').map((part) => {
    const rule = parseRule(part.trim());
    if (rule === null) {
      throw new ConfigError(`${VARIABLE}: action "${action}" has invalid rule "${part.trim()}"; ${FORMAT}`);
    }
    return Object.freeze(rule);
  });
}

// The reference also accepts "amount/period" and then limits per ip.
const RULE = /^(\d+)\/(\d*)([smhd])(?:\/(ip|user|key))?$/;

function parseRule(text: string): RateLimitRule | null {
  const match = RULE.exec(text);
  if (match === null) return null;
  const [, amountText, countText, unit, per = 'ip'] = match;
  const amount = Number(amountText);
  const periodSeconds = (countText === '' ? 1 : Number(countText)) * UNIT_SECONDS[unit!]!;
  // A zero amount would block the action outright and a zero period would
  // never expire; both are mistakes here, and false is the way to disable.
  if (!Number.isSafeInteger(amount) || amount < 1 || !Number.isSafeInteger(periodSeconds) || periodSeconds < 1) {
    return null;
  }
  return { amount, periodSeconds, per: per as RateLimitPer };
}
