import { ConfigError, readOptional, type Env } from './env.js';

// IDP_OIDC_RESOURCE_SERVERS: the APIs (RFC 8707 resource indicators) the
// OpenID provider issues audience-restricted access tokens for. Kept apart
// from IDP_OIDC_PROTECTED_RESOURCES (RFC 9728 metadata published about
// them): this one decides what tokens say, that one what is announced.

export interface ResourceServerSetting {
  /** The resource indicator: an absolute URI without fragment, the tokens' `aud`. */
  resource: string;
  /** The scopes this API knows; a client gets those among its own scopes. */
  scopes: string[];
  /** `opaque` (stored, introspectable, revocable) or `jwt` (oidc-provider's, verified with the JWKS, not stored). */
  accessTokenFormat: 'opaque' | 'jwt';
  /** Seconds; IDP_OIDC_ACCESS_TOKEN_EXPIRES_IN when unset. */
  accessTokenTtl: number | null;
}

const NAME = 'IDP_OIDC_RESOURCE_SERVERS';
const KEYS = ['resource', 'scopes', 'access_token_format', 'access_token_ttl'];
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

function readEntry(entry: unknown, index: number): ResourceServerSetting {
  const at = `${NAME}[${index}]`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ConfigError(`${at}: expected an object with resource, scopes, access_token_format, access_token_ttl`);
  const raw = entry as Record<string, unknown>;
  for (const key of Object.keys(raw)) if (!KEYS.includes(key)) throw new ConfigError(`${at}: unknown key "${key}"; allowed: ${KEYS.join(', ')}`);
  const { resource, scopes = [], access_token_format: format = 'opaque', access_token_ttl: ttl = null } = raw;
  // RFC 8707 section 2: an absolute URI, no fragment.
  if (typeof resource !== 'string' || !URL.canParse(resource) || resource.includes('#')) throw new ConfigError(`${at}.resource: expected an absolute URI without fragment`);
  if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || !SCOPE.test(s))) throw new ConfigError(`${at}.scopes: expected an array of scope tokens`);
  if (format !== 'opaque' && format !== 'jwt') throw new ConfigError(`${at}.access_token_format: expected "opaque" or "jwt"`);
  if (ttl !== null && (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 10 || ttl > 86400 * 30)) throw new ConfigError(`${at}.access_token_ttl: expected an integer between 10 and 2592000`);
  return { resource, scopes: [...new Set(scopes as string[])], accessTokenFormat: format, accessTokenTtl: ttl as number | null };
}

export function readResourceServers(env: Env): ResourceServerSetting[] {
  const raw = readOptional(env, NAME);
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${NAME}: expected a JSON array, got unparsable text`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError(`${NAME}: expected a JSON array of resource servers`);
  const servers = parsed.map(readEntry);
  const seen = new Set<string>();
  for (const server of servers) {
    if (seen.has(server.resource)) throw new ConfigError(`${NAME}: resource "${server.resource}" is listed twice`);
    seen.add(server.resource);
  }
  return servers;
}
