import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/config.js';
import type { Db } from '../../store/db.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import { deleteIdpClient, findIdpClient, insertIdpClient, listIdpClients, setIdpClientSecret, type IdpClientRecord, type IdpClientType } from '../../store/idp-clients.js';
import { newClientSecret } from '../../idp/client-secrets.js';
import { uriProblem } from '../../idp/uris.js';

// Registering the OpenID provider's clients, for the CLI and the admin API:
// the reference's client model (confidential or public, grant and response
// types, scopes and default scopes, redirect URIs with the optional
// wildcard, CORS origins, skip consent). A secret is returned once, on
// creation and on rotation, and only its hash is kept. Each change is an
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
  requirePushedAuthorizationRequests?: boolean;
}

export type IdpClientProblem = { ok: false; reason: 'invalid'; param: string; message: string } | { ok: false; reason: 'exists' | 'not_found' };

/** Checks a client as the reference's model and forms do, plus what the grants need (a redirect URI for the code flow, a secret for client credentials). */
export function validateIdpClient(client: IdpClientRecord): IdpClientProblem | null {
  const invalid = (param: string, message: string): IdpClientProblem => ({ ok: false, reason: 'invalid', param, message });
  if (!client.name.trim() || client.name.length > 100) return invalid('name', 'a name of 1 to 100 characters');
  if (!/^[A-Za-z0-9._~-]{1,100}$/.test(client.id)) return invalid('id', 'a client id of 1 to 100 letters, digits, ".", "_", "~" or "-"');
  for (const grant of client.grantTypes) if (!(GRANT_TYPES as readonly string[]).includes(grant)) return invalid('grant_types', `unknown grant type "${grant}"; allowed: ${GRANT_TYPES.join(', ')}`);
  if (client.grantTypes.length === 0) return invalid('grant_types', 'at least one grant type');
  for (const type of client.responseTypes) if (!(RESPONSE_TYPES as readonly string[]).includes(type)) return invalid('response_types', `unknown response type "${type}"`);
  for (const scope of [...client.scopes, ...client.defaultScopes]) if (!SCOPE.test(scope)) return invalid('scopes', `"${scope}" is not a scope token`);
  for (const scope of client.defaultScopes) if (!client.scopes.includes(scope)) return invalid('default_scopes', `default scope "${scope}" is not among the client's scopes`);
  for (const uri of [...client.redirectUris, ...client.postLogoutRedirectUris]) {
    const problem = uriProblem(uri, client.allowUriWildcards);
    if (problem) return invalid('redirect_uris', problem);
  }
  for (const origin of client.corsOrigins) {
    const problem = uriProblem(origin, client.allowUriWildcards);
    if (problem) return invalid('cors_origins', problem);
  }
  if (client.backchannelLogoutUri !== null && !/^https?:\/\/[^\s#]+$/.test(client.backchannelLogoutUri)) return invalid('backchannel_logout_uri', 'an http(s) URL without fragment');
  if (client.grantTypes.includes('authorization_code') && client.redirectUris.length === 0) return invalid('redirect_uris', 'the authorization_code grant needs at least one redirect URI');
  if (client.type === 'public' && client.grantTypes.includes('client_credentials')) return invalid('grant_types', 'a public client cannot use client_credentials (it has no secret)');
  if (client.type === 'public' && client.grantTypes.includes('urn:ietf:params:oauth:grant-type:token-exchange')) return invalid('grant_types', 'a public client cannot use token exchange (it has no secret)');
  return null;
}

export async function createIdpClient(deps: IdpAdminDeps, source: AuditSource, input: IdpClientInput): Promise<{ ok: true; client: IdpClientRecord; secret: string | null } | IdpClientProblem> {
  const type = input.type ?? 'confidential';
  const grantTypes = input.grantTypes ?? ['authorization_code'];
  const secret = type === 'confidential' ? newClientSecret() : null;
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
    ownerId: null,
    createdAt: source.now,
    requirePushedAuthorizationRequests: input.requirePushedAuthorizationRequests ?? false,
  };
  const problem = validateIdpClient(client);
  if (problem) return problem;
  if (await findIdpClient(deps.db, client.id)) return { ok: false, reason: 'exists' };
  await deps.db.transaction().execute(async (tx) => {
    await insertIdpClient(tx, client);
    await recordEvent(deps, tx, source, 'idp_client.created', { userId: null, detail: { client_id: client.id } });
  });
  return { ok: true, client, secret: secret?.secret ?? null };
}

export function idpClients(deps: IdpAdminDeps): Promise<IdpClientRecord[]> {
  return listIdpClients(deps.db);
}

export function idpClient(deps: IdpAdminDeps, id: string): Promise<IdpClientRecord | null> {
  return findIdpClient(deps.db, id);
}

/** A new secret for a confidential client; the old one stops working at once. */
export async function rotateIdpClientSecret(deps: IdpAdminDeps, source: AuditSource, id: string): Promise<{ ok: true; secret: string } | { ok: false; reason: 'not_found' | 'public_client' }> {
  const client = await findIdpClient(deps.db, id);
  if (!client) return { ok: false, reason: 'not_found' };
  if (client.type === 'public') return { ok: false, reason: 'public_client' };
  const { secret, hash } = newClientSecret();
  await deps.db.transaction().execute(async (tx) => {
    await setIdpClientSecret(tx, id, hash);
    await recordEvent(deps, tx, source, 'idp_client.secret_rotated', { userId: null, detail: { client_id: id } });
  });
  return { ok: true, secret };
}

export async function removeIdpClient(deps: IdpAdminDeps, source: AuditSource, id: string): Promise<boolean> {
  return deps.db.transaction().execute(async (tx) => {
    if (!(await deleteIdpClient(tx, id))) return false;
    await recordEvent(deps, tx, source, 'idp_client.deleted', { userId: null, detail: { client_id: id } });
    return true;
  });
}
