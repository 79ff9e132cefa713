import { ConfigError, readBool, readEnum, readInt, readJsonObject, readList, readOptional, readString, type Env } from './env.js';
import { parseSignupFields, type SignupFields } from './signup-fields.js';
import { parseRateLimits, type RateLimitConfig } from './rate-limits.js';
import { readMailSettings, type MailSettings } from './mail.js';
import { readPhoneSettings, type PhoneSettings } from './phone.js';
import { readSmsSettings, type SmsSettings } from './sms.js';
import { readAccountManagement, type EmailManagementSettings, type LoginByCodeSettings, type PasswordResetSettings } from './account-management.js';
import { readTokenSettings, type TokenSettings } from './tokens.js';
import { readOperations, type OperationsSettings } from './operations.js';
import { readSecretKeyFallbacks } from './secret-keys.js';
import { checkProductionSettings } from './production.js';
import { readSocialSettings, type SocialSettings } from './social.js';
import { readHttpSecurity, type HttpSecuritySettings } from './http-security.js';
import { readDependencySettings, type DependencySettings } from './dependencies.js';
import { readMfaSettings, type MfaSettings } from './mfa.js';
import { readAuditSettings, type AuditSettings } from './audit.js';
import { readAdminSettings, type AdminSettings } from './admin.js';
import { readIdpSettings, type IdpSettings } from './idp.js';
import { readLanguageSettings, type LanguageSettings } from './languages.js';
import { readBrandingSettings, type BrandingSettings } from './branding.js';
import { readPublicUrl } from './public-url.js';
import { readTemplateSettings, type TemplateSettings } from './templates.js';
import { readProfileSettings, type ProfileSettings } from './profile.js';

export { ConfigError };

export type LoginMethod = 'email' | 'username' | 'phone';
export type EmailVerification = 'none' | 'optional' | 'mandatory';
export type ClientKind = 'browser' | 'app';

/** Frontend URL templates put in mails, under the reference's key names. */
export interface FrontendUrls {
  account_confirm_email: string;
  account_reset_password: string;
  account_reset_password_from_key: string;
  account_signup: string;
  /** Where the social redirect flow lands when it cannot return to the callback_url (bad or replayed state). */
  socialaccount_login_error: string;
  /** The SPA's login page the OpenID provider sends a browser to, with `next` (the way back) added to its query. */
  account_login: string;
  /** When set, the OpenID provider's consent is the SPA's page (given `uid`), over the browser API's idp endpoints, instead of its own. */
  idp_oidc_consent?: string;
}

export interface Config {
  production: boolean;
  /** The environment the settings were read from, as given (the admin API's GET /settings shows the documented ones, masked). */
  environment: Readonly<Env>;
  /** Settings that load but probably do not mean what was intended: logged at start-up. */
  warnings: string[];
  host: string;
  port: number;
  logLevel: string;
  dataDir: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** Timeouts for PostgreSQL and Redis, and the wait for them at start-up. */
  dependencies: DependencySettings;
  /** Undefined only until the entry point resolves a development key. */
  secretKey: string;
  /** SECRET_KEY_FALLBACKS: older secrets that still verify and decrypt, never sign or encrypt. */
  secretKeyFallbacks: string[];
  trustedProxyCount: number;
  requestBodyLimit: number;
  /** Concurrent password hashes: all but one of libuv's pool threads. */
  passwordHashingConcurrency: number;
  siteName: string;
  /** LANGUAGE_CODE, LANGUAGES, LOCALE_DIR. */
  languages: LanguageSettings;
  /** BRANDING_*: logo, colours, stylesheet. */
  branding: BrandingSettings;
  /** PUBLIC_URL (else the fixed IDP_OIDC_ISSUER): the public listener's address, for absolute URLs of what it serves. */
  publicUrl: string | undefined;
  /** TEMPLATES_DIR, ACCOUNT_EMAIL_SUBJECT_PREFIX, ACCOUNT_EMAIL_NOTIFICATIONS. */
  templates: TemplateSettings;
  mail: MailSettings;
  sms: SmsSettings;
  clients: ClientKind[];
  frontendUrls: FrontendUrls;
  session: {
    cookieAge: number;
    /** SESSION_ABSOLUTE_LIFETIME: seconds from login after which a session ends however busy; 0 = none. */
    absoluteLifetime: number;
    cookieSecure: boolean;
    cookieName: string;
    csrfCookieName: string;
    sameSite: 'lax' | 'strict' | 'none';
  };
  /** USERSESSIONS_TRACK_ACTIVITY: keep each session's last IP, user agent and time, and list the time. */
  userSessions: { trackActivity: boolean };
  /** App-client tokens: HEADLESS_TOKEN_STRATEGY and HEADLESS_JWT_*. */
  tokens: TokenSettings;
  /** Health, metrics, shutdown: METRICS_*, HEALTH_CHECK_TIMEOUT_MS, SHUTDOWN_DRAIN_DELAY_MS. */
  operations: OperationsSettings;
  /** Social login: SOCIALACCOUNT_* and the providers. */
  social: SocialSettings;
  /** CORS_ALLOWED_ORIGINS and SECURE_HSTS_*. */
  httpSecurity: HttpSecuritySettings;
  /** Second factors: MFA_*. */
  mfa: MfaSettings;
  /** AUDIT_RETENTION_DAYS and the webhooks (WEBHOOK_*). */
  audit: AuditSettings;
  /** The admin API and console: ADMIN_PORT, ADMIN_HOST, ADMIN_CONSOLE_ENABLED. */
  admin: AdminSettings;
  /** The OpenID provider: IDP_OIDC_*. */
  idp: IdpSettings;
  /** Custom profile fields and where they show: ACCOUNT_PROFILE_SCHEMA, HEADLESS_USER_FIELDS, IDP_OIDC_PROFILE_CLAIMS. */
  profile: ProfileSettings;
  account: {
    loginMethods: LoginMethod[];
    signupFields: SignupFields;
    signupOpen: boolean;
    emailVerification: EmailVerification;
    emailVerificationByCode: boolean;
    emailVerificationByCodeMaxAttempts: number;
    emailVerificationByCodeTimeout: number;
    emailVerificationSupportsResend: boolean;
    emailConfirmationExpireDays: number;
    emailConfirmationCooldown: number;
    loginOnEmailConfirmation: boolean;
    passwordMinLength: number;
    usernameMinLength: number;
    usernameBlacklist: string[];
    preventEnumeration: boolean;
    reauthenticationTimeout: number;
    /** ACCOUNT_REAUTHENTICATION_REQUIRED: email and phone changes need a recent password (or code) check. */
    reauthenticationRequired: boolean;
    /** Seconds a login may wait at a stage such as the second factor. */
    loginTimeout: number;
    rateLimits: RateLimitConfig | false;
    phone: PhoneSettings;
    passwordReset: PasswordResetSettings;
    loginByCode: LoginByCodeSettings;
    emailManagement: EmailManagementSettings;
  };
}

const FRONTEND_URL_KEYS = ['account_confirm_email', 'account_reset_password', 'account_reset_password_from_key', 'account_signup', 'socialaccount_login_error', 'account_login', 'idp_oidc_consent'] as const;

function readFrontendBase(env: Env): string {
  return readString(env, 'FRONTEND_URL', 'http://localhost:3000').replace(/\/+$/, '');
}

function readFrontendUrls(env: Env): FrontendUrls {
  // Defaults follow the routes of allauth's example single-page app.
  const base = readFrontendBase(env);
  const urls: FrontendUrls = {
    account_confirm_email: `${base}/account/verify-email/{key}`,
    account_reset_password: `${base}/account/password/reset`,
    account_reset_password_from_key: `${base}/account/password/reset/key/{key}`,
    account_signup: `${base}/account/signup`,
    socialaccount_login_error: `${base}/account/provider/callback`,
    account_login: `${base}/account/login`,
  };
  const given = readJsonObject(env, 'HEADLESS_FRONTEND_URLS') ?? {};
  for (const [key, value] of Object.entries(given)) {
    if (!(FRONTEND_URL_KEYS as readonly string[]).includes(key)) {
      throw new ConfigError(`HEADLESS_FRONTEND_URLS: unknown key "${key}"; allowed: ${FRONTEND_URL_KEYS.join(', ')}`);
    }
    if (typeof value !== 'string' || !/^https?:\/\//.test(value)) {
      throw new ConfigError(`HEADLESS_FRONTEND_URLS.${key}: expected an http(s) URL template`);
    }
    urls[key as keyof FrontendUrls] = value;
  }
  for (const key of ['account_confirm_email', 'account_reset_password_from_key'] as const) {
    // A path segment of its own: not a query parameter, not glued to other text.
    if (!/^[^?#]*\/\{key\}\/?$/.test(urls[key])) {
      throw new ConfigError(`HEADLESS_FRONTEND_URLS.${key}: the template must end with {key} as its last path segment`);
    }
  }
  return urls;
}

/** Thirty days by default: a monthly login for someone active every day. */
function readAbsoluteLifetime(env: Env): number {
  const seconds = readInt(env, 'SESSION_ABSOLUTE_LIFETIME', 30 * 86400, { min: 0 });
  if (seconds > 0 && seconds < 60) throw new ConfigError('SESSION_ABSOLUTE_LIFETIME: expected 0 (no limit) or at least 60 seconds');
  return seconds;
}

function readDatabaseUrl(env: Env): string {
  const url = readString(env, 'DATABASE_URL', 'sqlite:./data/db.sqlite3');
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(url)) {
    throw new ConfigError('DATABASE_URL: expected sqlite:<path>, sqlite::memory: or postgres://user@host:port/db');
  }
  return url;
}

/**
 * The reference derives the confirm_email limit from the confirmation
 * cooldown; an explicit confirm_email rule in ACCOUNT_RATE_LIMITS wins.
 */
function withConfirmationCooldown(env: Env, byCode: boolean, cooldown: number): string | undefined {
  const raw = readOptional(env, 'ACCOUNT_RATE_LIMITS');
  if (byCode || readOptional(env, 'ACCOUNT_EMAIL_CONFIRMATION_COOLDOWN') === undefined) return raw;
  if (raw !== undefined && !raw.trim().startsWith('{')) return raw;
  const rules = raw === undefined ? {} : readJsonObject(env, 'ACCOUNT_RATE_LIMITS')!;
  if ('confirm_email' in rules) return raw;
  return JSON.stringify({ ...rules, confirm_email: cooldown === 0 ? false : `1/${cooldown}s/key` });
}

/**
 * Reads and validates every setting once. `secretKey` may come back empty
 * outside production; the entry point then supplies a persisted dev key.
 */
export function loadConfig(env: Env): Config {
  const production = env.NODE_ENV === 'production';
  const secretKey = readOptional(env, 'SECRET_KEY') ?? '';
  if (production && !secretKey) {
    throw new ConfigError('SECRET_KEY is required when NODE_ENV=production');
  }
  if (secretKey && secretKey.length < 32) {
    throw new ConfigError('SECRET_KEY: expected at least 32 characters');
  }

  const emailVerificationByCode = readBool(env, 'ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED', false);
  const emailConfirmationCooldown = readInt(env, 'ACCOUNT_EMAIL_CONFIRMATION_COOLDOWN', 180, { min: 0 });
  const loginAttemptsLimit = readOptional(env, 'ACCOUNT_LOGIN_ATTEMPTS_LIMIT');
  const loginAttemptsTimeout = readOptional(env, 'ACCOUNT_LOGIN_ATTEMPTS_TIMEOUT');
  const rateLimits = parseRateLimits(withConfirmationCooldown(env, emailVerificationByCode, emailConfirmationCooldown), {
    loginAttemptsLimit: loginAttemptsLimit === undefined ? undefined : readInt(env, 'ACCOUNT_LOGIN_ATTEMPTS_LIMIT', 5, { min: 0 }),
    loginAttemptsTimeout: loginAttemptsTimeout === undefined ? undefined : readInt(env, 'ACCOUNT_LOGIN_ATTEMPTS_TIMEOUT', 300, { min: 0 }),
    emailVerificationByCode,
  });

  const loginMethods = readList<LoginMethod>(env, 'ACCOUNT_LOGIN_METHODS', ['email', 'username', 'phone'], ['email']);
  const signupFields = parseSignupFields(readString(env, 'ACCOUNT_SIGNUP_FIELDS', 'email*,password1*'));
  const warnings: string[] = [];
  // As the reference's check account.W001: a warning, and only when no login
  // method is a required field (one may sign up by email and add a phone later).
  if (!loginMethods.some((method) => signupFields[method]?.required)) {
    warnings.push(`ACCOUNT_LOGIN_METHODS conflicts with ACCOUNT_SIGNUP_FIELDS: none of ${loginMethods.join(', ')} is a required signup field, so new accounts may have nothing to log in with`);
  }
  const emailVerification = readEnum<EmailVerification>(env, 'ACCOUNT_EMAIL_VERIFICATION', ['none', 'optional', 'mandatory'], 'optional');
  if (emailVerification === 'mandatory' && !signupFields.email?.required) {
    throw new ConfigError('ACCOUNT_EMAIL_VERIFICATION=mandatory needs "email*" in ACCOUNT_SIGNUP_FIELDS');
  }
  if (production) checkProductionSettings(env, loginMethods.includes('phone') || signupFields.phone !== undefined);
  const host = readString(env, 'HOST', '127.0.0.1');
  const accountManagement = readAccountManagement(env);
  const port = readInt(env, 'PORT', 8000, { min: 0, max: 65535 });
  const operations = readOperations(env, host);
  const publicUrl = readPublicUrl(env, production);

  const config: Omit<Config, 'mfa'> = {
    environment: Object.freeze({ ...env }),
    production,
    warnings,
    host,
    port,
    logLevel: readEnum(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    dataDir: readString(env, 'DATA_DIR', './data'),
    databaseUrl: readDatabaseUrl(env),
    redisUrl: readOptional(env, 'REDIS_URL'),
    dependencies: readDependencySettings(env),
    secretKey,
    secretKeyFallbacks: readSecretKeyFallbacks(env),
    trustedProxyCount: readInt(env, 'TRUSTED_PROXY_COUNT', 0, { min: 0, max: 10 }),
    requestBodyLimit: readInt(env, 'REQUEST_BODY_LIMIT', 64 * 1024, { min: 1024, max: 10 * 1024 * 1024 }),
    // libuv reads UV_THREADPOOL_SIZE itself; hashing takes all threads but one,
    // so file and DNS work never queues behind a burst of logins.
    passwordHashingConcurrency: Math.max(1, readInt(env, 'UV_THREADPOOL_SIZE', 4, { min: 1, max: 1024 }) - 1),
    siteName: readString(env, 'SITE_NAME', 'Headless Auth'),
    languages: readLanguageSettings(env),
    branding: readBrandingSettings(env, { production, publicUrl, host, port, warnings }),
    publicUrl,
    templates: readTemplateSettings(env),
    mail: readMailSettings(env, production),
    sms: readSmsSettings(env),
    clients: readList<ClientKind>(env, 'HEADLESS_CLIENTS', ['browser', 'app'], ['browser', 'app']),
    frontendUrls: readFrontendUrls(env),
    tokens: readTokenSettings(env),
    operations,
    social: readSocialSettings(env, { emailVerification, signupFields, loginByCode: accountManagement.loginByCode.enabled }, production),
    httpSecurity: readHttpSecurity(env),
    audit: readAuditSettings(env),
    admin: readAdminSettings(env, [port, operations.metrics.port]),
    idp: readIdpSettings(env, production, warnings),
    profile: readProfileSettings(env),
    session: {
      cookieAge: readInt(env, 'SESSION_COOKIE_AGE', 1209600, { min: 60 }),
      absoluteLifetime: readAbsoluteLifetime(env),
      cookieSecure: readBool(env, 'SESSION_COOKIE_SECURE', production),
      cookieName: readString(env, 'SESSION_COOKIE_NAME', 'sessionid'),
      csrfCookieName: readString(env, 'CSRF_COOKIE_NAME', 'csrftoken'),
      sameSite: readEnum(env, 'SESSION_COOKIE_SAMESITE', ['lax', 'strict', 'none'], 'lax'),
    },
    userSessions: { trackActivity: readBool(env, 'USERSESSIONS_TRACK_ACTIVITY', false) },
    account: {
      loginMethods,
      signupFields,
      signupOpen: readBool(env, 'ACCOUNT_SIGNUP_OPEN', true),
      emailVerification,
      emailVerificationByCode,
      emailVerificationByCodeMaxAttempts: readInt(env, 'ACCOUNT_EMAIL_VERIFICATION_BY_CODE_MAX_ATTEMPTS', 3, { min: 1, max: 100 }),
      emailVerificationByCodeTimeout: readInt(env, 'ACCOUNT_EMAIL_VERIFICATION_BY_CODE_TIMEOUT', 900, { min: 30 }),
      emailVerificationSupportsResend: readBool(env, 'ACCOUNT_EMAIL_VERIFICATION_SUPPORTS_RESEND', true),
      emailConfirmationExpireDays: readInt(env, 'ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS', 3, { min: 1, max: 365 }),
      emailConfirmationCooldown,
      loginOnEmailConfirmation: readBool(env, 'ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION', true),
      passwordMinLength: readInt(env, 'ACCOUNT_PASSWORD_MIN_LENGTH', 8, { min: 1, max: 128 }),
      usernameMinLength: readInt(env, 'ACCOUNT_USERNAME_MIN_LENGTH', 1, { min: 1, max: 150 }),
      usernameBlacklist: (readOptional(env, 'ACCOUNT_USERNAME_BLACKLIST') ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean),
      preventEnumeration: readBool(env, 'ACCOUNT_PREVENT_ENUMERATION', true),
      reauthenticationTimeout: readInt(env, 'ACCOUNT_REAUTHENTICATION_TIMEOUT', 300, { min: 1 }),
      reauthenticationRequired: readBool(env, 'ACCOUNT_REAUTHENTICATION_REQUIRED', false),
      loginTimeout: readInt(env, 'ACCOUNT_LOGIN_TIMEOUT', 900, { min: 60, max: 86400 }),
      rateLimits,
      ...readPhoneSettings(env),
      ...accountManagement,
    },
  };
  const { siteName, session } = config;
  return { ...config, mfa: readMfaSettings(env, { production, siteName, frontendUrl: readFrontendBase(env), session }) };
}
