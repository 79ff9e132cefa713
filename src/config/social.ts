import { ConfigError, readBool, readEnum, readInt, readJsonObject, readOptional, readString, type Env } from './env.js';
import type { EmailVerification } from './config.js';
import type { SignupFields } from './signup-fields.js';
import type { SocialApp } from '../social/app.js';
import { parseSocialProviders } from './social-providers.js';
import { isAcceptableEndpoint } from '../social/kit/loopback.js';

// Social login settings, under the reference's SOCIALACCOUNT_* names and
// with its defaults. The providers themselves: social-providers.ts.

export interface SocialSettings {
  /** SOCIALACCOUNT_ENABLED: the social endpoints exist and /config lists the providers. */
  enabled: boolean;
  /** Every configured app, in configuration order. */
  apps: SocialApp[];
  /** New social users are signed up without a form when the provider gave what signup needs. */
  autoSignup: boolean;
  /** A provider's verified address logs in to the local account that has it. */
  emailAuthentication: boolean;
  /** ... and connects the social account to it. */
  emailAuthenticationAutoConnect: boolean;
  /** Verification applied to logins and signups through a provider. */
  emailVerification: EmailVerification;
  emailRequired: boolean;
  /** Ask providers for the user's address (scopes such as GitHub's user:email). */
  queryEmail: boolean;
  /** Keep the provider's access and refresh tokens (encrypted at rest). */
  storeTokens: boolean;
  /** SOCIALACCOUNT_ONLY: no local password login or signup. */
  only: boolean;
  /** Seconds for each call to a provider. */
  requestsTimeout: number;
  /** The path segment of openid_connect callbacks: /accounts/<prefix>/<provider_id>/login/callback/. */
  openIdConnectUrlPrefix: string;
  /** SOCIALACCOUNT_PROVIDER_ORIGINS: a provider's fixed origin (lower case) → the base URL it is reached at instead. */
  providerOrigins: Readonly<Record<string, string>>;
}

/**
 * SOCIALACCOUNT_PROVIDER_ORIGINS (ours, not the reference's): the catalogue's
 * providers have fixed URLs; this serves an origin at another base URL (an
 * egress proxy, or a loopback stand-in in the tests). https, or http on loopback.
 */
function readProviderOrigins(env: Env): Record<string, string> {
  const raw = readJsonObject(env, 'SOCIALACCOUNT_PROVIDER_ORIGINS') ?? {};
  const out: Record<string, string> = {};
  for (const [origin, base] of Object.entries(raw)) {
    let from: URL;
    let to: URL;
    try {
      from = new URL(origin);
      to = new URL(String(base));
    } catch {
      throw new ConfigError(`SOCIALACCOUNT_PROVIDER_ORIGINS: "${origin}": expected an origin mapped to an absolute URL`);
    }
    if (from.origin !== origin.replace(/\/+$/, '').toLowerCase() || typeof base !== 'string') {
      throw new ConfigError(`SOCIALACCOUNT_PROVIDER_ORIGINS: "${origin}": expected an origin (scheme and host, no path) mapped to a URL`);
    }
    if (!isAcceptableEndpoint(to)) throw new ConfigError(`SOCIALACCOUNT_PROVIDER_ORIGINS: "${origin}": expected an https URL (http only on this machine's loopback address)`);
    out[from.origin] = base.replace(/\/+$/, '');
  }
  return out;
}

export function readSocialSettings(
  env: Env,
  account: { emailVerification: EmailVerification; signupFields: SignupFields; loginByCode: boolean },
  production: boolean,
): SocialSettings {
  const providersRaw = readOptional(env, 'SOCIALACCOUNT_PROVIDERS');
  const enabled = readBool(env, 'SOCIALACCOUNT_ENABLED', providersRaw !== undefined);
  const only = readBool(env, 'SOCIALACCOUNT_ONLY', false);
  const openIdConnectUrlPrefix = readString(env, 'SOCIALACCOUNT_OPENID_CONNECT_URL_PREFIX', 'oidc').replace(/^\/+|\/+$/g, '');
  if (!/^[A-Za-z0-9_.-]*$/.test(openIdConnectUrlPrefix)) {
    throw new ConfigError('SOCIALACCOUNT_OPENID_CONNECT_URL_PREFIX: expected one URL path segment (letters, digits, "_", "." or "-")');
  }
  const emailRequired = readBool(env, 'SOCIALACCOUNT_EMAIL_REQUIRED', account.signupFields.email?.required ?? false);
  const emailVerification = readEnum<EmailVerification>(
    env,
    'SOCIALACCOUNT_EMAIL_VERIFICATION',
    ['none', 'optional', 'mandatory'],
    only ? 'none' : account.emailVerification,
  );
  if (emailVerification === 'mandatory' && !emailRequired) {
    throw new ConfigError('SOCIALACCOUNT_EMAIL_VERIFICATION=mandatory needs SOCIALACCOUNT_EMAIL_REQUIRED (an address to verify)');
  }
  if (only) {
    if (!enabled) throw new ConfigError('SOCIALACCOUNT_ONLY needs social login enabled (SOCIALACCOUNT_PROVIDERS)');
    if (account.emailVerification !== 'none') throw new ConfigError('SOCIALACCOUNT_ONLY requires ACCOUNT_EMAIL_VERIFICATION=none');
    if (emailVerification !== 'none') throw new ConfigError('SOCIALACCOUNT_ONLY requires SOCIALACCOUNT_EMAIL_VERIFICATION=none');
    if (account.loginByCode) throw new ConfigError('SOCIALACCOUNT_ONLY does not work with ACCOUNT_LOGIN_BY_CODE_ENABLED');
  }
  if (enabled && production && readOptional(env, 'FRONTEND_URL') === undefined && !('socialaccount_login_error' in (readJsonObject(env, 'HEADLESS_FRONTEND_URLS') ?? {}))) {
    throw new ConfigError('HEADLESS_FRONTEND_URLS: socialaccount_login_error is required when NODE_ENV=production, social login is on and FRONTEND_URL is unset');
  }
  return {
    enabled,
    apps: enabled && providersRaw !== undefined ? parseSocialProviders(providersRaw, openIdConnectUrlPrefix) : [],
    autoSignup: readBool(env, 'SOCIALACCOUNT_AUTO_SIGNUP', true),
    emailAuthentication: readBool(env, 'SOCIALACCOUNT_EMAIL_AUTHENTICATION', false),
    emailAuthenticationAutoConnect: readBool(env, 'SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT', false),
    emailVerification,
    emailRequired,
    queryEmail: readBool(env, 'SOCIALACCOUNT_QUERY_EMAIL', emailRequired),
    storeTokens: readBool(env, 'SOCIALACCOUNT_STORE_TOKENS', false),
    only,
    requestsTimeout: readInt(env, 'SOCIALACCOUNT_REQUESTS_TIMEOUT', 5, { min: 1, max: 60 }),
    openIdConnectUrlPrefix,
    providerOrigins: readProviderOrigins(env),
  };
}
