import { randomUUID } from 'node:crypto';
import type { Deps } from '../context.js';
import type { AuditSource } from '../../audit/recorder.js';
import { recordEvent } from '../../audit/recorder.js';
import { hashSecret, randomKey } from '../../security/secrets.js';
import { deleteIdpClient, findIdpClient, insertIdpClient, upsertIdpClient, type IdpClientRecord } from '../../store/idp-clients.js';
import { findClientRegistration, initialAccessTokenUsable, insertClientRegistration, setClientRegistrationMetadata, useInitialAccessToken } from '../../store/idp-registration.js';
import { clientSecretMatches, newClientSecret } from '../../idp/client-secrets.js';
import { REGISTRATION_PATH } from '../../idp/paths.js';
import { offeredScopes, parseRegistration, registrationView, selfDescribedClient } from '../../idp/registration-metadata.js';
import { validateIdpClient } from '../admin/idp-clients.js';

// Dynamic client registration (RFC 7591) and its management (RFC 7592),
// under IDP_OIDC_REGISTRATION. A registered client is a row of idp_clients
// like any other, checked by the same rules as an administrator's
// (validateIdpClient) and by the narrower ones of what a client may ask for
// itself (idp/registration-metadata.ts). Its secret and its registration
// access token are returned once and kept as hashes; each change is an
// audit event whose actor is `registration`.

/** An OAuth answer: a JSON body, or an RFC 6749 error. */
export type RegistrationAnswer =
  | { status: 200 | 201; body: Record<string, unknown> }
  | { status: 204 }
  | { status: 400 | 401; error: string; description: string };

export interface RegistrationRequest {
  /** The bearer token of the Authorization header, if any. */
  bearer: string | null;
  body: unknown;
  issuer: string;
}

const invalidToken = (description: string): RegistrationAnswer => ({ status: 401, error: 'invalid_token', description });

function registrationSource(source: AuditSource): AuditSource {
  return { ip: source.ip, userAgent: source.userAgent, now: source.now, actor: 'registration' };
}

/** Our client model's rules on top of the registration's own; a redirect URI they refuse is `invalid_redirect_uri`. */
function checked(deps: Deps, client: IdpClientRecord): RegistrationAnswer | null {
  const problem = validateIdpClient(client, deps.config);
  if (!problem) return null;
  if (problem.reason !== 'invalid') return { status: 400, error: 'invalid_client_metadata', description: problem.reason };
  // RFC 7591's error_description is for the developer registering, not an end user: English.
  return { status: 400, error: problem.param === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata', description: `${problem.param}: ${deps.i18n.t('en', `api.${problem.message.key}`, problem.message.values)}` };
}

const clientUri = (issuer: string, id: string) => `${issuer}${REGISTRATION_PATH}/${encodeURIComponent(id)}`;

/** POST to the registration endpoint (RFC 7591 section 3). */
export async function registerClient(deps: Deps, source: AuditSource, request: RegistrationRequest): Promise<RegistrationAnswer> {
  const mode = deps.config.idp.dynamicClients.registration;
  const tokenHash = request.bearer === null ? null : hashSecret(request.bearer);
  if (tokenHash === null && mode === 'initial_access_token') return invalidToken('registration needs an initial access token');
  if (tokenHash !== null && !(await initialAccessTokenUsable(deps.db, tokenHash, source.now))) return invalidToken('the initial access token is unknown, expired or used up');

  const parsed = parseRegistration(request.body, offeredScopes(deps.config.idp.dynamicClients));
  if (!parsed.ok) return { status: 400, error: parsed.error, description: parsed.description };
  const secret = parsed.value.fields.type === 'confidential' ? newClientSecret() : null;
  const client = selfDescribedClient(parsed.value.fields, randomUUID().replaceAll('-', ''), secret?.hash ?? null, source.now);
  const problem = checked(deps, client);
  if (problem) return problem;

  const accessToken = randomKey(32);
  const registered = await deps.db.transaction().execute(async (tx) => {
    // The use is taken with the registration, so a refused one costs none; two racing for the last use cannot both have it.
    const tokenId = tokenHash === null ? null : await useInitialAccessToken(tx, tokenHash, source.now);
    if (tokenHash !== null && tokenId === null) return false;
    await insertIdpClient(tx, client);
    await insertClientRegistration(tx, { clientId: client.id, initialAccessTokenId: tokenId, metadata: parsed.value.extras, createdAt: source.now }, hashSecret(accessToken));
    await recordEvent(deps, tx, registrationSource(source), 'idp_client.created', { userId: null, detail: { client_id: client.id, ...(tokenId !== null ? { initial_access_token_id: tokenId } : {}) } });
    return true;
  });
  if (!registered) return invalidToken('the initial access token is unknown, expired or used up');
  return {
    status: 201,
    body: {
      ...registrationView(client, parsed.value.extras),
      ...(secret ? { client_secret: secret.secret } : {}),
      registration_access_token: accessToken,
      registration_client_uri: clientUri(request.issuer, client.id),
    },
  };
}

/** The client and registration the registration access token is for, when it names `clientId`. */
async function managed(deps: Deps, bearer: string | null, clientId: string) {
  if (bearer === null) return null;
  const registration = await findClientRegistration(deps.db, hashSecret(bearer));
  if (!registration || registration.clientId !== clientId) return null;
  const client = await findIdpClient(deps.db, clientId);
  return client ? { client, registration } : null;
}

const NOT_MANAGED = 'the registration access token is unknown or is not for this client';

/** GET of the client configuration endpoint (RFC 7592 section 2.1). */
export async function readRegistration(deps: Deps, request: RegistrationRequest, clientId: string): Promise<RegistrationAnswer> {
  const found = await managed(deps, request.bearer, clientId);
  if (!found) return invalidToken(NOT_MANAGED);
  return { status: 200, body: { ...registrationView(found.client, found.registration.metadata), registration_client_uri: clientUri(request.issuer, clientId) } };
}

/**
 * PUT (RFC 7592 section 2.2): the metadata sent replaces the registered
 * metadata. A client that becomes confidential is issued a secret (shown in
 * this answer only); one that stays so keeps its own.
 */
export async function updateRegistration(deps: Deps, source: AuditSource, request: RegistrationRequest, clientId: string): Promise<RegistrationAnswer> {
  const found = await managed(deps, request.bearer, clientId);
  if (!found) return invalidToken(NOT_MANAGED);
  const body = request.body as Record<string, unknown> | null;
  if (typeof body !== 'object' || body === null || body.client_id !== clientId) return { status: 400, error: 'invalid_client_metadata', description: 'client_id must be the registered client id' };
  if (body.client_secret !== undefined && !(typeof body.client_secret === 'string' && (await clientSecretMatches(body.client_secret, found.client.secretHash)))) {
    return { status: 400, error: 'invalid_client_metadata', description: 'client_secret is not the current secret' };
  }
  const parsed = parseRegistration(body, offeredScopes(deps.config.idp.dynamicClients));
  if (!parsed.ok) return { status: 400, error: parsed.error, description: parsed.description };
  const confidential = parsed.value.fields.type === 'confidential';
  const secret = confidential && !found.client.secretHash ? newClientSecret() : null;
  const client = selfDescribedClient(parsed.value.fields, clientId, confidential ? (secret?.hash ?? found.client.secretHash) : null, found.client.createdAt);
  const problem = checked(deps, client);
  if (problem) return problem;
  await deps.db.transaction().execute(async (tx) => {
    await upsertIdpClient(tx, client);
    await setClientRegistrationMetadata(tx, clientId, parsed.value.extras);
    await recordEvent(deps, tx, registrationSource(source), 'idp_client.updated', { userId: null, detail: { client_id: clientId } });
  });
  return {
    status: 200,
    body: { ...registrationView(client, parsed.value.extras), ...(secret ? { client_secret: secret.secret } : {}), registration_client_uri: clientUri(request.issuer, clientId) },
  };
}

/** DELETE (RFC 7592 section 2.3): the client is gone, its registration and its tokens with it. */
export async function deleteRegistration(deps: Deps, source: AuditSource, request: RegistrationRequest, clientId: string): Promise<RegistrationAnswer> {
  const found = await managed(deps, request.bearer, clientId);
  if (!found) return invalidToken(NOT_MANAGED);
  await deps.db.transaction().execute(async (tx) => {
    await deleteIdpClient(tx, clientId);
    await recordEvent(deps, tx, registrationSource(source), 'idp_client.deleted', { userId: null, detail: { client_id: clientId } });
  });
  return { status: 204 };
}
