import { ConfigError, readBool, readInt, readOptional, type Env } from './env.js';

// Which other origins may call the API from a browser, and the security
// headers a TLS deployment turns on. Names follow django-cors-headers and
// Django's SECURE_HSTS_* settings.

export interface HttpSecuritySettings {
  /** CORS_ALLOWED_ORIGINS: exact origins, or '*' for any (then without credentials); empty: none. */
  corsAllowedOrigins: string[] | '*';
  /** SECURE_HSTS_SECONDS: Strict-Transport-Security max-age; 0 sends no header. */
  hstsSeconds: number;
  hstsIncludeSubdomains: boolean;
  hstsPreload: boolean;
}

function readAllowedOrigins(env: Env): string[] | '*' {
  const items = (readOptional(env, 'CORS_ALLOWED_ORIGINS') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (items.includes('*')) {
    if (items.length > 1) throw new ConfigError('CORS_ALLOWED_ORIGINS: "*" allows every origin and cannot be combined with others');
    return '*';
  }
  for (const item of items) {
    let origin: string | undefined;
    try {
      origin = new URL(item).origin;
    } catch {
      origin = undefined;
    }
    // Browsers send the origin exactly so: scheme, host and port, nothing after.
    if (origin !== item || !/^https?:/.test(item)) {
      throw new ConfigError(`CORS_ALLOWED_ORIGINS: "${item}" is not an origin; expected scheme://host[:port] in lower case, without a path, e.g. https://app.example.com`);
    }
  }
  return items;
}

export function readHttpSecurity(env: Env): HttpSecuritySettings {
  return {
    corsAllowedOrigins: readAllowedOrigins(env),
    hstsSeconds: readInt(env, 'SECURE_HSTS_SECONDS', 0, { min: 0, max: 2 * 365 * 86400 }),
    hstsIncludeSubdomains: readBool(env, 'SECURE_HSTS_INCLUDE_SUBDOMAINS', false),
    hstsPreload: readBool(env, 'SECURE_HSTS_PRELOAD', false),
  };
}
