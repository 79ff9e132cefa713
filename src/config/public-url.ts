import { ConfigError, readOptional, type Env } from './env.js';

/**
 * PUBLIC_URL: where browsers and mail readers reach the public listener
 * (scheme, host, and the path a proxy mounts it under), for the absolute
 * URLs of what the server itself serves to a mail, such as the brand's
 * logo. Unset, the OpenID provider's fixed issuer stands in: it names the
 * same server (and is checked by its own setting). Without either there is
 * none; development then falls back to the listen address where it needs one.
 */
export function readPublicUrl(env: Env, production: boolean): string | undefined {
  const raw = readOptional(env, 'PUBLIC_URL');
  if (raw === undefined) return readOptional(env, 'IDP_OIDC_ISSUER')?.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL: expected an absolute http(s) URL such as https://auth.example.com, got "${raw}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`PUBLIC_URL: expected an http(s) URL, got "${raw}"`);
  if (production && url.protocol !== 'https:') throw new ConfigError(`PUBLIC_URL: expected an https URL when NODE_ENV=production, got "${raw}"`);
  if (url.search || url.hash || url.username || url.password) throw new ConfigError(`PUBLIC_URL: expected a URL without query, fragment or credentials, got "${raw}"`);
  return url.href.replace(/\/+$/, '');
}
