import { msg, type MessageRef } from '../../i18n/message.js';
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/config.js';
import type { Db } from '../../store/db.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import { deleteIdpClient, findIdpClient, insertIdpClient, listIdpClients, setIdpClientKeys, setIdpClientSecret, updateIdpClientSettings, type IdpClientAuthMethod, type IdpClientJwks, type IdpClientRecord, type IdpClientType } from '../../store/idp-clients.js';
import { newClientSecret } from '../../idp/client-secrets.js';
import { CLIENT_AUTH_METHODS, CONFIDENTIAL_AUTH_METHODS, usesSecret } from '../../idp/client-auth-methods.js';
import { jwksProblem, jwksUriProblem } from '../../idp/client-keys.js';
import { uriProblem } from '../../idp/uris.js';
import { isPrivateHost } from '../../messaging/private-address.js';

// Registering the OpenID provider's clients, for the CLI and the admin API:
// the reference's client model (confidential or public, grant and response
// types, scopes and default scopes, redirect URIs with the optional
// wildcard, CORS origins, skip consent), whether it is a resource server
// that may introspect other clients' tokens, and how the client
// authenticates (its secret, or its keys for private_key_jwt). A secret is
// returned once, on creation and on rotation, and only its hash is kept. Each change is an
// audit event with its actor (the CLI, an admin API key, an administrator).

export interface IdpAdminDeps {
  config: Config;
  db: Db;
}

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:token-exchange'] as const;
export const RESPONSE_TYPES = ['code', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token', 'none'] as const;
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export interface IdpClientInput {
  name: string;
  type?: IdpClientType;
  id?: string;
  scopes?: string[];
  defaultScopes?: string[];
  grantTypes?: string[];
  responseTypes?: string[];
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  corsOrigins?: string[];
  allowUriWildcards?: boolean;
  skipConsent?: boolean;
  backchannelLogoutUri?: string | null;
  resourceServer?: boolean;
  /** client_secret_basic by default for a confidential client (which may then send its secret either way), none for a public one. */
  tokenEndpointAuthMethod?: IdpClientAuthMethod;
  /** private_key_jwt: the client's public JWK Set, checked here (any shape may come in). */
  jwks?: unknown;
  /** private_key_jwt: where the provider fetches the client's JWK Set instead. */
  jwksUri?: string | null;
  requirePushedAuthorizationRequests?: boolean;
}

export type IdpClientProblem = { ok: false; reason: 'invalid'; param: string; message: MessageRef } | { ok: false; reason: 'exists' | 'not_found' };

/**
 * A back-channel logout URI is POSTed to by the server itself: an http(s) URL without fragment or userinfo, and,
 * unless IDP_OIDC_BACKCHANNEL_LOGOUT_ALLOW_PRIVATE, not a private, loopback or link-local address (the sender checks
 * the addresses a name resolves to as well).
 */
function backchannelLogoutUriProblem(uri: string, allowPrivate: boolean): MessageRef | null {
  const url = /^https?:\/\/[^\s#]+$/.test(uri) ? URL.parse(uri) : null;
  if (!url) return msg('client.backchannel_url');
  if (/^https?:\/\/[^/?#\\]*@/i.test(uri)) return msg('client.backchannel_userinfo');
  if (!allowPrivate && isPrivateHost(url.hostname)) return msg('client.backchannel_private', { host: url.hostname });
  return null;
}

/** Checks a client as the reference's model and forms do, plus what the grants need (a redirect URI for the code flow, a secret for client credentials). */
export function validateIdpClient(client: IdpClientRecord, config: Config): IdpClientProblem | null {
  const invalid = (param: string, message: MessageRef): IdpClientProblem => ({ ok: false, reason: 'invalid', param, message });
  if (!client.name.trim() || client.name.length > 100) return invalid('name', msg('client.name', { max: 100 }));
  if (!/^[A-Za-z0-9._~-]{1,100}$/.test(client.id)) return invalid('id', msg('client.id', { max: 100 }));
  for (const grant of client.grantTypes) if (!(GRANT_TYPES as readonly string[]).includes(grant)) return invalid('grant_types', msg('client.unknown_grant_type', { grant, allowed: GRANT_TYPES.join(', ') }));
  if (client.grantTypes.length === 0) return invalid('grant_types', msg('client.no_grant_type'));
  for (const type of client.responseTypes) if (!(RESPONSE_TYPES as readonly string[]).includes(type)) return invalid('response_types', msg('client.unknown_response_type', { type }));
  for (const scope of [...client.scopes, ...client.defaultScopes]) if (!SCOPE.test(scope)) return invalid('scopes', msg('client.scope_token', { scope }));
  for (const scope of client.defaultScopes) if (!client.scopes.includes(scope)) return invalid('default_scopes', msg('client.default_scope', { scope }));
  for (const uri of [...client.redirectUris, ...client.postLogoutRedirectUris]) {
    const problem = uriProblem(uri, client.allowUriWildcards);
    if (problem) return invalid('redirect_uris', msg('client.uri', { detail: problem }));
  }
  for (const origin of client.corsOrigins) {
    const problem = uriProblem(origin, client.allowUriWildcards);
    if (problem) return invalid('cors_origins', msg('client.uri', { detail: problem }));
  }
  const backchannelProblem = client.backchannelLogoutUri === null ? null : backchannelLogoutUriProblem(client.backchannelLogoutUri, config.idp.backchannelLogoutAllowPrivate);
  if (backchannelProblem) return invalid('backchannel_logout_uri', backchannelProblem);
  if (client.grantTypes.includes('authorization_code') && client.redirectUris.length === 0) return invalid('redirect_uris', msg('client.redirect_uri_needed'));
  if (client.type === 'public' && client.grantTypes.includes('client_credentials')) return invalid('grant_types', msg('client.public_client_credentials'));
  // Anyone can call as a public client: it must not read other clients' tokens.
  if (client.type === 'public' && client.resourceServer) return invalid('resource_server', msg('client.public_resource_server'));
  if (client.type === 'public' && client.grantTypes.includes('urn:ietf:params:oauth:grant-type:token-exchange')) return invalid('grant_types', msg('client.public_token_exchange'));
  return null;
}

/** Checks how a client authenticates: a public one with none, a confidential one with its secret or with the keys it registers (private_key_jwt). */
export function validateClientAuthentication(client: IdpClientRecord, production: boolean): IdpClientProblem | null {
  const invalid = (param: string, message: MessageRef): IdpClientProblem => ({ ok: false, reason: 'invalid', param, message });
  const method = client.tokenEndpointAuthMethod;
  if (!CLIENT_AUTH_METHODS.includes(method)) return invalid('token_endpoint_auth_method', msg('client.unknown_auth_method', { method: String(method), allowed: CLIENT_AUTH_METHODS.join(', ') }));
  if (client.type === 'public' && method !== 'none') return invalid('token_endpoint_auth_method', msg('client.public_auth_method'));
  if (client.type === 'confidential' && !CONFIDENTIAL_AUTH_METHODS.includes(method)) return invalid('token_endpoint_auth_method', msg('client.confidential_auth_method', { allowed: CONFIDENTIAL_AUTH_METHODS.join(', ') }));
  const hasKeys = client.jwks !== null || client.jwksUri !== null;
  if (method !== 'private_key_jwt') return hasKeys ? invalid(client.jwks !== null ? 'jwks' : 'jwks_uri', msg('client.keys_not_needed')) : null;
  if (!hasKeys) return invalid('jwks', msg('client.keys_needed'));
  if (client.jwks !== null && client.jwksUri !== null) return invalid('jwks_uri', msg('client.keys_twice'));
  const keysRefusal = client.jwks !== null ? jwksProblem(client.jwks) : null;
  if (keysRefusal) return invalid('jwks', msg('client.keys_refused', { detail: keysRefusal }));
  const uriRefusal = client.jwksUri !== null ? jwksUriProblem(client.jwksUri, production) : null;
  return uriRefusal ? invalid('jwks_uri', msg('client.jwks_uri_refused', { detail: uriRefusal })) : null;
}

export async function createIdpClient(deps: IdpAdminDeps, source: AuditSource, input: IdpClientInput): Promise<{ ok: true; client: IdpClientRecord; secret: string | null } | IdpClientProblem> {
  const type = input.type ?? 'confidential';
  const grantTypes = input.grantTypes ?? ['authorization_code'];
  const authMethod = input.tokenEndpointAuthMethod ?? (type === 'public' ? 'none' : 'client_secret_basic');
  const secret = type === 'confidential' && usesSecret(authMethod) ? newClientSecret() : null;
  const client: IdpClientRecord = {
    // The reference's adapter: uuid4().hex.
    id: input.id ?? randomUUID().replaceAll('-', ''),
    name: input.name,
    secretHash: secret?.hash ?? null,
    type,
    scopes: input.scopes ?? ['openid'],
    defaultScopes: input.defaultScopes ?? [],
    grantTypes,
    responseTypes: input.responseTypes ?? (grantTypes.includes('authorization_code') ? ['code'] : []),
    redirectUris: input.redirectUris ?? [],
    postLogoutRedirectUris: input.postLogoutRedirectUris ?? [],
    corsOrigins: input.corsOrigins ?? [],
    allowUriWildcards: input.allowUriWildcards ?? false,
    skipConsent: input.skipConsent ?? false,
    backchannelLogoutUri: input.backchannelLogoutUri ?? null,
    resourceServer: input.resourceServer ?? false,
    ownerId: null,
    createdAt: source.now,
    tokenEndpointAuthMethod: authMethod,
    jwks: (input.jwks ?? null) as IdpClientJwks | null,
    jwksUri: input.jwksUri ?? null,
    requirePushedAuthorizationRequests: input.requirePushedAuthorizationRequests ?? false,
  };
  const problem = validateIdpClient(client, deps.config) ?? validateClientAuthentication(client, deps.config.production);
  if (problem) return problem;
  if (await findIdpClient(deps.db, client.id)) return { ok: false, reason: 'exists' };
  await deps.db.transaction().execute(async (tx) => {
    await insertIdpClient(tx, client);
    await recordEvent(deps, tx, source, 'idp_client.created', { userId: null, detail: { client_id: client.id } });
  });
  return { ok: true, client, secret: secret?.secret ?? null };
}

/** What an edit may change: the registration, not what the client is (confidential or public) nor how it authenticates (its secret, its keys). */
export type IdpClientChanges = Partial<Omit<IdpClientInput, 'id' | 'type' | 'tokenEndpointAuthMethod' | 'jwks' | 'jwksUri'>>;

/**
 * Changes a client's registration, checked exactly as a new one is; the
 * fields not given stay. Its secret and keys are left alone (rotate-secret
 * and keys replace those), so that an edit racing a rotation keeps the new secret.
 */
export async function updateIdpClient(deps: IdpAdminDeps, source: AuditSource, id: string, changes: IdpClientChanges): Promise<{ ok: true; client: IdpClientRecord } | IdpClientProblem> {
  const existing = await findIdpClient(deps.db, id);
  if (!existing) return { ok: false, reason: 'not_found' };
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as IdpClientChanges;
  const client: IdpClientRecord = { ...existing, ...defined };
  const problem = validateIdpClient(client, deps.config) ?? validateClientAuthentication(client, deps.config.production);
  if (problem) return problem;
  const updated = await deps.db.transaction().execute(async (tx) => {
    if (!(await updateIdpClientSettings(tx, client))) return false;
    await recordEvent(deps, tx, source, 'idp_client.updated', { userId: null, detail: { client_id: id } });
    return true;
  });
  return updated ? { ok: true, client } : { ok: false, reason: 'not_found' };
}

export function idpClients(deps: IdpAdminDeps): Promise<IdpClientRecord[]> {
  return listIdpClients(deps.db);
}

export function idpClient(deps: IdpAdminDeps, id: string): Promise<IdpClientRecord | null> {
  return findIdpClient(deps.db, id);
}

/** A new secret for a confidential client; the old one stops working at once. */
export async function rotateIdpClientSecret(deps: IdpAdminDeps, source: AuditSource, id: string): Promise<{ ok: true; secret: string } | { ok: false; reason: 'not_found' | 'public_client' | 'private_key_jwt_client' }> {
  const client = await findIdpClient(deps.db, id);
  if (!client) return { ok: false, reason: 'not_found' };
  if (client.type === 'public') return { ok: false, reason: 'public_client' };
  // A client that signs its assertions has no secret: giving it one would open a second way in.
  if (client.tokenEndpointAuthMethod === 'private_key_jwt') return { ok: false, reason: 'private_key_jwt_client' };
  const { secret, hash } = newClientSecret();
  await deps.db.transaction().execute(async (tx) => {
    await setIdpClientSecret(tx, id, hash);
    await recordEvent(deps, tx, source, 'idp_client.secret_rotated', { userId: null, detail: { client_id: id } });
  });
  return { ok: true, secret };
}

/**
 * New keys for a private_key_jwt client, replacing its JWK Set or its
 * jwks_uri: assertions signed with a key no longer there stop working at
 * once. A client that publishes at a jwks_uri rotates there without this.
 */
export async function replaceIdpClientKeys(
  deps: IdpAdminDeps,
  source: AuditSource,
  id: string,
  keys: { jwks?: unknown; jwksUri?: string | null },
): Promise<{ ok: true; client: IdpClientRecord } | IdpClientProblem> {
  const existing = await findIdpClient(deps.db, id);
  if (!existing) return { ok: false, reason: 'not_found' };
  const client: IdpClientRecord = { ...existing, jwks: (keys.jwks ?? null) as IdpClientJwks | null, jwksUri: keys.jwksUri ?? null };
  const problem = validateClientAuthentication(client, deps.config.production);
  if (problem) return problem;
  await deps.db.transaction().execute(async (tx) => {
    await setIdpClientKeys(tx, id, client.jwks, client.jwksUri);
    await recordEvent(deps, tx, source, 'idp_client.keys_replaced', { userId: null, detail: { client_id: id } });
  });
  return { ok: true, client };
}

export async function removeIdpClient(deps: IdpAdminDeps, source: AuditSource, id: string): Promise<boolean> {
  return deps.db.transaction().execute(async (tx) => {
    if (!(await deleteIdpClient(tx, id))) return false;
    await recordEvent(deps, tx, source, 'idp_client.deleted', { userId: null, detail: { client_id: id } });
    return true;
  });
}
