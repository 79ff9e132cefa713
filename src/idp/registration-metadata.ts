import type { IdpRegistrationSettings } from '../config/idp-registration.js';
import type { IdpClientRecord } from '../store/idp-clients.js';
import { uriProblem } from './uris.js';

// RFC 7591 client metadata, read into our client model and written back
// from it. What a client may register is narrower than what an
// administrator may: the code flow (with refresh tokens) and the device
// flow, the response type `code`, scopes among those the server offers,
// and redirect URIs without wildcards, over https unless on a loopback
// address or a custom scheme (a native app). Our privileged fields (skip
// consent, wildcards, CORS origins, default scopes, back-channel logout)
// are never read from a registration: a client cannot grant itself trust.

export type RegistrationError = { error: 'invalid_redirect_uri' | 'invalid_client_metadata'; description: string };

/** The fields of our client model a registration sets; the rest are the defaults of an untrusted client. */
export type RegisteredFields = Pick<IdpClientRecord, 'name' | 'type' | 'scopes' | 'grantTypes' | 'responseTypes' | 'redirectUris' | 'postLogoutRedirectUris'>;

export interface ParsedRegistration {
  fields: RegisteredFields;
  /** Kept beside the client and returned as registered: informational metadata and the authentication method. */
  extras: Record<string, unknown>;
}

export const REGISTRABLE_GRANT_TYPES = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'];
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];
/** Informational metadata (RFC 7591 section 2), stored and echoed. */
const URL_EXTRAS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri'];
const STRING_EXTRAS = ['software_id', 'software_version'];
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const DANGEROUS_SCHEMES = /^(javascript|data|vbscript|file|blob):/i;

/** What a registered client may ask for: the standard scopes and those of the resource servers behind us. */
export function offeredScopes(settings: IdpRegistrationSettings): string[] {
  const resources = settings.protectedResources.flatMap((r) => r.scopes_supported ?? []);
  return [...new Set(['openid', 'profile', 'email', 'phone', 'offline_access', ...resources])];
}

function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string' || uri.length > 2000) return 'each redirect URI is a string of at most 2000 characters';
  const problem = uriProblem(uri, false);
  if (problem) return problem.replace('needs --allow-uri-wildcards', 'is not allowed');
  if (DANGEROUS_SCHEMES.test(uri)) return `"${uri}": this scheme is not allowed`;
  if (/^http:/i.test(uri) && !/^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)[:/]/i.test(uri)) return `"${uri}": http is only allowed on a loopback address; use https`;
  return null;
}

function stringList(value: unknown, max: number): string[] | null {
  return Array.isArray(value) && value.length <= max && value.every((v) => typeof v === 'string') ? value : null;
}

/**
 * Reads a registration request (RFC 7591 section 3.1, or a replacement of
 * section 2.2 of RFC 7592). `offered` is every scope the server has for
 * registered clients; a client that names none gets them all.
 */
export function parseRegistration(body: unknown, offered: readonly string[]): { ok: true; value: ParsedRegistration } | ({ ok: false } & RegistrationError) {
  const metadata = (description: string) => ({ ok: false as const, error: 'invalid_client_metadata' as const, description });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return metadata('the body is a JSON object of client metadata');
  const m = body as Record<string, unknown>;

  const redirectUris = m.redirect_uris === undefined ? [] : stringList(m.redirect_uris, 20);
  if (!redirectUris) return { ok: false, error: 'invalid_redirect_uri', description: 'redirect_uris is an array of at most 20 URIs' };
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) return { ok: false, error: 'invalid_redirect_uri', description: problem };
  }
  const postLogout = m.post_logout_redirect_uris === undefined ? [] : stringList(m.post_logout_redirect_uris, 20);
  if (!postLogout) return metadata('post_logout_redirect_uris is an array of at most 20 URIs');
  for (const uri of postLogout) {
    const problem = redirectUriProblem(uri);
    if (problem) return metadata(`post_logout_redirect_uris: ${problem}`);
  }

  const authMethod = m.token_endpoint_auth_method ?? 'client_secret_basic';
  if (typeof authMethod !== 'string' || !AUTH_METHODS.includes(authMethod)) return metadata(`token_endpoint_auth_method: one of ${AUTH_METHODS.join(', ')}`);

  const grantTypes = m.grant_types === undefined ? ['authorization_code'] : stringList(m.grant_types, 5);
  if (!grantTypes || grantTypes.length === 0) return metadata('grant_types is a non-empty array');
  for (const grant of grantTypes) if (!REGISTRABLE_GRANT_TYPES.includes(grant)) return metadata(`grant type "${grant}" cannot be registered; allowed: ${REGISTRABLE_GRANT_TYPES.join(', ')}`);
  const responseTypes = m.response_types === undefined ? (grantTypes.includes('authorization_code') ? ['code'] : []) : stringList(m.response_types, 1);
  if (!responseTypes || responseTypes.some((t) => t !== 'code')) return metadata('response_types: only ["code"] can be registered');
  // RFC 7591 section 2.1: the two lists must agree.
  if (responseTypes.includes('code') !== grantTypes.includes('authorization_code')) return metadata('response type "code" goes with the authorization_code grant type, and the reverse');
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0) return { ok: false, error: 'invalid_redirect_uri', description: 'the authorization_code grant needs at least one redirect URI' };

  let scopes = [...offered];
  if (m.scope !== undefined) {
    if (typeof m.scope !== 'string') return metadata('scope is a space-separated string');
    scopes = [...new Set(m.scope.split(' ').filter(Boolean))];
    const unknown = scopes.find((scope) => !SCOPE.test(scope) || !offered.includes(scope));
    if (unknown !== undefined) return metadata(`scope "${unknown}" is not offered to registered clients; offered: ${offered.join(' ')}`);
  }

  if (m.client_name !== undefined && (typeof m.client_name !== 'string' || !m.client_name.trim() || m.client_name.length > 100)) return metadata('client_name is a string of 1 to 100 characters');
  const extras: Record<string, unknown> = { token_endpoint_auth_method: authMethod };
  for (const key of URL_EXTRAS) {
    if (m[key] === undefined) continue;
    if (typeof m[key] !== 'string' || m[key].length > 2000 || !/^https:\/\/\S+$/.test(m[key])) return metadata(`${key} is an https URL`);
    extras[key] = m[key];
  }
  for (const key of STRING_EXTRAS) {
    if (m[key] === undefined) continue;
    if (typeof m[key] !== 'string' || m[key].length > 200) return metadata(`${key} is a string of at most 200 characters`);
    extras[key] = m[key];
  }
  if (m.contacts !== undefined) {
    const contacts = stringList(m.contacts, 10);
    if (!contacts || contacts.some((c) => c.length > 320)) return metadata('contacts is an array of at most 10 addresses');
    extras.contacts = contacts;
  }

  return {
    ok: true,
    value: {
      fields: {
        name: (m.client_name as string | undefined)?.trim() ?? 'Unnamed application',
        type: authMethod === 'none' ? 'public' : 'confidential',
        scopes,
        grantTypes,
        responseTypes,
        redirectUris,
        postLogoutRedirectUris: postLogout,
      },
      extras,
    },
  };
}

/** The client's metadata as RFC 7591 section 3.2.1 returns it (without the credentials). */
export function registrationView(client: IdpClientRecord, extras: Record<string, unknown>): Record<string, unknown> {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    ...(client.type === 'confidential' ? { client_secret_expires_at: 0 } : {}),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    scope: client.scopes.join(' '),
    ...(client.postLogoutRedirectUris.length ? { post_logout_redirect_uris: client.postLogoutRedirectUris } : {}),
    ...extras,
  };
}

/**
 * A client that described itself (a registration, a metadata document): the
 * fields it set, and for the rest an untrusted client's defaults, none of
 * our privileged ones (skip consent, wildcards, CORS origins, resource
 * server, back-channel logout). Our model takes a secret either way (basic
 * or post): the method it registered is kept with the extras and echoed.
 */
export function selfDescribedClient(fields: RegisteredFields, id: string, secretHash: string | null, createdAt: number): IdpClientRecord {
  return {
    ...fields,
    id,
    secretHash,
    defaultScopes: [],
    corsOrigins: [],
    allowUriWildcards: false,
    skipConsent: false,
    backchannelLogoutUri: null,
    resourceServer: false,
    tokenEndpointAuthMethod: fields.type === 'public' ? 'none' : 'client_secret_basic',
    jwks: null,
    jwksUri: null,
    requirePushedAuthorizationRequests: false,
    ownerId: null,
    createdAt,
  };
}
