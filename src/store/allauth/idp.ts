import { hasColumn, sourceBool, sourceMillis, sourceTime, type AllauthSource } from './source.js';

// allauth.idp.oidc's tables: its clients (allauth_idp_oidc_client) and the
// refresh tokens it issued (allauth_idp_oidc_token, type "rt"), which stand
// for what users granted each client. Its tokens are stored as the SHA-256
// (hex) of their value, as ours are.

export interface SourceIdpClient {
  id: string;
  name: string;
  /** A Django password hash (make_password). */
  secret: string;
  type: string;
  scopes: string[];
  defaultScopes: string[];
  grantTypes: string[];
  responseTypes: string[];
  redirectUris: string[];
  corsOrigins: string[];
  allowUriWildcards: boolean;
  skipConsent: boolean;
  createdAt: number;
}

export interface SourceIdpRefreshToken {
  id: number;
  /** SHA-256 hex of the token. */
  hash: string;
  clientId: string;
  userId: number;
  scopes: string[];
  createdAt: number;
}

const CLIENTS = 'allauth_idp_oidc_client';
const TOKENS = 'allauth_idp_oidc_token';

/** One value per line, as the reference's text columns hold lists. */
const lines = (text: string | null | undefined): string[] => (text ?? '').split('\n').map((s) => s.trim()).filter(Boolean);

export async function readIdpClients(source: AllauthSource): Promise<SourceIdpClient[]> {
  if (!source.tables.has(CLIENTS)) return [];
  // default_scopes (0002) and allow_uri_wildcards (0003) came later.
  const later = (['default_scopes', 'allow_uri_wildcards'] as const).filter((column) => hasColumn(source, CLIENTS, column));
  const rows = (await source.conn
    .selectFrom(CLIENTS as 'django_session')
    .select(['id', 'name', 'secret', 'type', 'scopes', 'grant_types', 'response_types', 'redirect_uris', 'cors_origins', 'skip_consent', 'created_at', ...later] as never[])
    .orderBy('created_at' as never)
    .execute()) as unknown as Array<Record<string, any>>;
  return rows.map((row) => ({
    id: String(row.id),
    name: String(row.name),
    secret: String(row.secret),
    type: String(row.type),
    scopes: lines(row.scopes),
    defaultScopes: lines(row.default_scopes),
    grantTypes: lines(row.grant_types),
    responseTypes: lines(row.response_types),
    redirectUris: lines(row.redirect_uris),
    corsOrigins: lines(row.cors_origins),
    allowUriWildcards: row.allow_uri_wildcards === undefined ? false : sourceBool(row.allow_uri_wildcards),
    skipConsent: sourceBool(row.skip_consent),
    createdAt: sourceMillis(row.created_at) ?? Date.now(),
  }));
}

export async function countIdpRefreshTokens(source: AllauthSource, now: number): Promise<number> {
  if (!source.tables.has(TOKENS)) return 0;
  const row = await liveRefreshTokens(source, now)
    .select((eb: any) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number((row as { n: number }).n);
}

function liveRefreshTokens(source: AllauthSource, now: number): any {
  return (source.conn as any)
    .selectFrom(TOKENS)
    .where('type', '=', 'rt')
    .where('user_id', 'is not', null)
    .where('client_id', 'is not', null)
    .where((eb: any) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sourceTime(source, now))]));
}

/** Live refresh tokens with a user and a client, by id after `afterId`. */
export async function readIdpRefreshTokens(source: AllauthSource, now: number, afterId: number, limit: number): Promise<SourceIdpRefreshToken[]> {
  if (!source.tables.has(TOKENS)) return [];
  const rows = (await liveRefreshTokens(source, now).select(['id', 'hash', 'client_id', 'user_id', 'scopes', 'created_at']).where('id', '>', afterId).orderBy('id').limit(limit).execute()) as Array<Record<string, any>>;
  return rows.map((row) => ({
    id: Number(row.id),
    hash: String(row.hash),
    clientId: String(row.client_id),
    userId: Number(row.user_id),
    scopes: lines(row.scopes),
    createdAt: sourceMillis(row.created_at) ?? now,
  }));
}
