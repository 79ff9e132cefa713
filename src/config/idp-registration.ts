import { ConfigError, readBool, readEnum, readOptional, type Env } from './env.js';

// Clients the provider does not know beforehand: dynamic registration
// (RFC 7591/7592), client ID metadata documents (a URL as client_id), and
// the metadata of the resource servers that accept our tokens (RFC 9728).
// All off unless set.

export type RegistrationMode = 'off' | 'initial_access_token' | 'open';

/** One resource server behind us, as RFC 9728 section 2 describes it. */
export interface ProtectedResource {
  resource: string;
  scopes_supported?: string[];
  resource_name?: string;
  resource_documentation?: string;
  resource_policy_uri?: string;
  resource_tos_uri?: string;
  bearer_methods_supported?: string[];
}

export interface IdpRegistrationSettings {
  /** IDP_OIDC_REGISTRATION: who may register a client at the registration endpoint. */
  registration: RegistrationMode;
  /** IDP_OIDC_CLIENT_ID_METADATA_DOCUMENTS: an https URL as client_id names its own metadata. */
  clientIdMetadataDocuments: boolean;
  /** IDP_OIDC_CLIENT_ID_METADATA_DOCUMENT_PRIVATE_HOSTS: documents may be fetched from loopback and private addresses (and over http from them). */
  clientIdMetadataDocumentPrivateHosts: boolean;
  /** IDP_OIDC_PROTECTED_RESOURCES. */
  protectedResources: ProtectedResource[];
}

const URL_FIELDS = ['resource_documentation', 'resource_policy_uri', 'resource_tos_uri'] as const;
const LIST_FIELDS = ['scopes_supported', 'bearer_methods_supported'] as const;
const FIELDS = ['resource', 'resource_name', ...URL_FIELDS, ...LIST_FIELDS];

function readProtectedResources(env: Env): ProtectedResource[] {
  const name = 'IDP_OIDC_PROTECTED_RESOURCES';
  const raw = readOptional(env, name);
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${name}: expected a JSON array, got unparsable text`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError(`${name}: expected a JSON array of objects`);
  const seen = new Set<string>();
  return parsed.map((entry: unknown, i) => {
    const at = `${name}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ConfigError(`${at}: expected an object`);
    const item = entry as Record<string, unknown>;
    for (const key of Object.keys(item)) if (!FIELDS.includes(key)) throw new ConfigError(`${at}: unknown key "${key}"; allowed: ${FIELDS.join(', ')}`);
    // RFC 9728 section 1.2: an https URL without a fragment (http is let through for development).
    if (typeof item.resource !== 'string' || !/^https?:\/\/[^/?#\s]+(\/[^#\s]*)?$/.test(item.resource)) throw new ConfigError(`${at}.resource: expected an http(s) URL without fragment`);
    if (seen.has(item.resource)) throw new ConfigError(`${at}.resource: listed twice`);
    seen.add(item.resource);
    if (item.resource_name !== undefined && typeof item.resource_name !== 'string') throw new ConfigError(`${at}.resource_name: expected a string`);
    for (const key of URL_FIELDS) {
      if (item[key] !== undefined && (typeof item[key] !== 'string' || !/^https?:\/\/\S+$/.test(item[key]))) throw new ConfigError(`${at}.${key}: expected an http(s) URL`);
    }
    for (const key of LIST_FIELDS) {
      const list = item[key];
      if (list !== undefined && (!Array.isArray(list) || !list.every((s) => typeof s === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s)))) throw new ConfigError(`${at}.${key}: expected an array of tokens`);
    }
    return item as unknown as ProtectedResource;
  });
}

export function readIdpRegistrationSettings(env: Env, production: boolean, warnings: string[]): IdpRegistrationSettings {
  const privateHosts = readBool(env, 'IDP_OIDC_CLIENT_ID_METADATA_DOCUMENT_PRIVATE_HOSTS', false);
  if (privateHosts && production) warnings.push('IDP_OIDC_CLIENT_ID_METADATA_DOCUMENT_PRIVATE_HOSTS is on: a client id may make this server fetch from its own network');
  return {
    registration: readEnum(env, 'IDP_OIDC_REGISTRATION', ['off', 'initial_access_token', 'open'], 'off'),
    clientIdMetadataDocuments: readBool(env, 'IDP_OIDC_CLIENT_ID_METADATA_DOCUMENTS', false),
    clientIdMetadataDocumentPrivateHosts: privateHosts,
    protectedResources: readProtectedResources(env),
  };
}
