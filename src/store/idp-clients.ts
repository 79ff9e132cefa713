import type { Conn } from './db.js';
import { prepared } from './prepared.js';

// OpenID provider clients (idp_clients). Lists are JSON arrays; the secret
// is only ever a hash.

export type IdpClientType = 'confidential' | 'public';

/** How a client authenticates at the token endpoint (see idp/client-auth-methods.ts). */
export type IdpClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/** A client's public JWK Set (see idp/client-keys.ts). */
export type IdpClientJwks = { keys: Record<string, unknown>[] };

export interface IdpClientRecord {
  id: string;
  name: string;
  secretHash: string | null;
  type: IdpClientType;
  scopes: string[];
  defaultScopes: string[];
  grantTypes: string[];
  responseTypes: string[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  corsOrigins: string[];
  allowUriWildcards: boolean;
  skipConsent: boolean;
  backchannelLogoutUri: string | null;
  /** May introspect other clients' tokens (RFC 7662); others introspect only their own. */
  resourceServer: boolean;
  ownerId: number | null;
  createdAt: number;
  /** none for public clients; private_key_jwt clients have no secret, but keys (jwks or jwksUri). */
  tokenEndpointAuthMethod: IdpClientAuthMethod;
  jwks: IdpClientJwks | null;
  jwksUri: string | null;
  /** RFC 9126: its authorization requests must come through the PAR endpoint. */
  requirePushedAuthorizationRequests: boolean;
}

type Row = {
  id: string;
  name: string;
  secret_hash: string | null;
  type: string;
  scopes: string;
  default_scopes: string;
  grant_types: string;
  response_types: string;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  cors_origins: string;
  allow_uri_wildcards: number;
  skip_consent: number;
  backchannel_logout_uri: string | null;
  resource_server: number;
  owner_id: number | null;
  created_at: number | string;
  token_endpoint_auth_method: string;
  jwks: string | null;
  jwks_uri: string | null;
  require_pushed_authorization_requests: number;
};

function toRecord(row: Row): IdpClientRecord {
  return {
    id: row.id,
    name: row.name,
    secretHash: row.secret_hash,
    type: row.type as IdpClientType,
    scopes: JSON.parse(row.scopes) as string[],
    defaultScopes: JSON.parse(row.default_scopes) as string[],
    grantTypes: JSON.parse(row.grant_types) as string[],
    responseTypes: JSON.parse(row.response_types) as string[],
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
    corsOrigins: JSON.parse(row.cors_origins) as string[],
    allowUriWildcards: row.allow_uri_wildcards === 1,
    skipConsent: row.skip_consent === 1,
    backchannelLogoutUri: row.backchannel_logout_uri,
    resourceServer: row.resource_server === 1,
    ownerId: row.owner_id,
    createdAt: Number(row.created_at),
    tokenEndpointAuthMethod: row.token_endpoint_auth_method as IdpClientAuthMethod,
    jwks: row.jwks === null ? null : (JSON.parse(row.jwks) as IdpClientJwks),
    jwksUri: row.jwks_uri,
    requirePushedAuthorizationRequests: row.require_pushed_authorization_requests === 1,
  };
}

function toRow(client: IdpClientRecord) {
  return {
    id: client.id,
    name: client.name,
    secret_hash: client.secretHash,
    type: client.type,
    scopes: JSON.stringify(client.scopes),
    default_scopes: JSON.stringify(client.defaultScopes),
    grant_types: JSON.stringify(client.grantTypes),
    response_types: JSON.stringify(client.responseTypes),
    redirect_uris: JSON.stringify(client.redirectUris),
    post_logout_redirect_uris: JSON.stringify(client.postLogoutRedirectUris),
    cors_origins: JSON.stringify(client.corsOrigins),
    allow_uri_wildcards: client.allowUriWildcards ? 1 : 0,
    skip_consent: client.skipConsent ? 1 : 0,
    backchannel_logout_uri: client.backchannelLogoutUri,
    resource_server: client.resourceServer ? 1 : 0,
    owner_id: client.ownerId,
    created_at: client.createdAt,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    jwks: client.jwks === null ? null : JSON.stringify(client.jwks),
    jwks_uri: client.jwksUri,
    require_pushed_authorization_requests: client.requirePushedAuthorizationRequests ? 1 : 0,
  };
}

export async function insertIdpClient(conn: Conn, client: IdpClientRecord): Promise<void> {
  await conn.insertInto('idp_clients').values(toRow(client)).execute();
}

/** Inserts or, for an id already present, replaces (the import runs again over its own rows). */
export async function upsertIdpClient(conn: Conn, client: IdpClientRecord): Promise<'inserted' | 'updated'> {
  const existing = await conn.selectFrom('idp_clients').select('id').where('id', '=', client.id).executeTakeFirst();
  const { id, ...rest } = toRow(client);
  if (existing) {
    await conn.updateTable('idp_clients').set(rest).where('id', '=', id).execute();
    return 'updated';
  }
  await conn.insertInto('idp_clients').values({ id, ...rest }).execute();
  return 'inserted';
}

/** A client's registration as an edit changes it: never its type, secret, keys or owner. */
export async function updateIdpClientSettings(conn: Conn, client: IdpClientRecord): Promise<boolean> {
  const { id, secret_hash: _secret, type: _type, token_endpoint_auth_method: _method, jwks: _jwks, jwks_uri: _uri, owner_id: _owner, created_at: _created, ...settings } = toRow(client);
  const result = await conn.updateTable('idp_clients').set(settings).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Whether `id` could name a row (the column holds up to 100 characters):
 * what a client sends as its id reaches these lookups as it came, and
 * PostgreSQL refuses a NUL byte in text with an error rather than a miss.
 */
function possibleId(id: string): boolean {
  return id.length > 0 && id.length <= 100 && !/[\u0000-\u001f\u007f-\u009f]/.test(id);
}

// Every token request looks its client up: compiled once, and on SQLite read
// on the reader connection, outside the writer's queue. Always read, so that
// a client deleted or a secret rotated (by the CLI, in another process)
// counts from the next request.
const clientRows = prepared((conn: Conn, id: string) => conn.selectFrom('idp_clients').selectAll().where('id', '=', id));

export async function findIdpClient(conn: Conn, id: string): Promise<IdpClientRecord | null> {
  if (!possibleId(id)) return null;
  const [row] = await clientRows(conn, id);
  return row ? toRecord(row) : null;
}

// The provider's lookups (idp/adapter.ts, one per token request) read the
// row every time as well, with two economies that change nothing a request
// sees:
// - requests that arrive together share a read: a lookup waits for the end
//   of the event loop's turn and joins the read of the same id that other
//   lookups of that turn are waiting for, never one already sent. Each
//   request therefore still reads the row after it arrived, so that a
//   secret rotated or a client deleted (by the CLI, another process or
//   another instance) counts from the next request on;
// - while the row reads exactly as before, the record is the one made from
//   it then, frozen: what the provider derives from a record (its client
//   metadata, its Client object) is derived once per version of the row.
interface SharedClients {
  records: Map<string, { row: Row; record: IdpClientRecord }>;
  /** Reads not sent yet, by id. */
  waiting: Map<string, Promise<Row | undefined>>;
}
const sharedClients = new WeakMap<Conn, SharedClients>();
/** Records kept per database: a bound on memory, whatever the client ids asked for. */
const SHARED_RECORDS = 1000;

/** As findIdpClient, the same frozen record for as long as the row is unchanged. */
export async function findSharedIdpClient(conn: Conn, id: string): Promise<Readonly<IdpClientRecord> | null> {
  if (!possibleId(id)) return null;
  let shared = sharedClients.get(conn);
  if (!shared) sharedClients.set(conn, (shared = { records: new Map(), waiting: new Map() }));
  const { records, waiting } = shared;
  let read = waiting.get(id);
  if (!read) {
    read = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      // Sent from here on: a lookup arriving now waits for a read of its own.
      waiting.delete(id);
      return (await clientRows(conn, id))[0];
    });
    waiting.set(id, read);
  }
  const row = await read;
  const before = records.get(id);
  if (!row) {
    records.delete(id);
    return null;
  }
  if (before && sameRow(before.row, row)) return before.record;
  const record = deepFreeze(toRecord(row));
  records.delete(id);
  if (records.size >= SHARED_RECORDS) records.delete(records.keys().next().value!);
  records.set(id, { row, record });
  return record;
}

function sameRow(a: Row, b: Row): boolean {
  for (const column of Object.keys(b) as Array<keyof Row>) if (a[column] !== b[column]) return false;
  return true;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export async function listIdpClients(conn: Conn): Promise<IdpClientRecord[]> {
  const rows = await conn.selectFrom('idp_clients').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toRecord);
}

export async function setIdpClientSecret(conn: Conn, id: string, secretHash: string): Promise<boolean> {
  if (!possibleId(id)) return false;
  const result = await conn.updateTable('idp_clients').set({ secret_hash: secretHash }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A private_key_jwt client's keys: an inline JWK Set or a jwks_uri, the other cleared. */
export async function setIdpClientKeys(conn: Conn, id: string, jwks: IdpClientJwks | null, jwksUri: string | null): Promise<void> {
  await conn.updateTable('idp_clients').set({ jwks: jwks === null ? null : JSON.stringify(jwks), jwks_uri: jwksUri }).where('id', '=', id).execute();
}

export async function deleteIdpClient(conn: Conn, id: string): Promise<boolean> {
  if (!possibleId(id)) return false;
  const result = await conn.deleteFrom('idp_clients').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Clients with a back-channel logout URI (each is told when a user's session here ends). */
export async function idpClientsWithBackchannelLogout(conn: Conn): Promise<IdpClientRecord[]> {
  const rows = await conn.selectFrom('idp_clients').selectAll().where('backchannel_logout_uri', 'is not', null).execute();
  return rows.map(toRecord);
}
