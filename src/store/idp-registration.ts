import type { Conn } from './db.js';

// Dynamic client registration: initial access tokens
// (idp_initial_access_tokens) and the registrations of the clients made
// with them (idp_client_registrations). Tokens are looked up by their hash.

export interface InitialAccessTokenRecord {
  id: number;
  createdAt: number;
  expiresAt: number | null;
  usesLeft: number | null;
}

export interface ClientRegistrationRecord {
  clientId: string;
  initialAccessTokenId: number | null;
  /** The RFC 7591 metadata our client model has no field for. */
  metadata: Record<string, unknown>;
  createdAt: number;
}

type TokenRow = { id: number; created_at: number | string; expires_at: number | string | null; uses_left: number | null };

const toToken = (row: TokenRow): InitialAccessTokenRecord => ({
  id: row.id,
  createdAt: Number(row.created_at),
  expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  usesLeft: row.uses_left,
});

export async function insertInitialAccessToken(conn: Conn, tokenHash: string, createdAt: number, expiresAt: number | null, uses: number | null): Promise<InitialAccessTokenRecord> {
  const row = await conn
    .insertInto('idp_initial_access_tokens')
    .values({ token_hash: tokenHash, created_at: createdAt, expires_at: expiresAt, uses_left: uses })
    .returning(['id', 'created_at', 'expires_at', 'uses_left'])
    .executeTakeFirstOrThrow();
  return toToken(row);
}

/** Tokens still usable at `now`, oldest first. */
export async function listInitialAccessTokens(conn: Conn, now: number): Promise<InitialAccessTokenRecord[]> {
  const rows = await conn
    .selectFrom('idp_initial_access_tokens')
    .select(['id', 'created_at', 'expires_at', 'uses_left'])
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) => eb.or([eb('uses_left', 'is', null), eb('uses_left', '>', 0)]))
    .orderBy('id')
    .execute();
  return rows.map(toToken);
}

/** Housekeeping: tokens expired or used up at `now` can register nothing more. */
export async function deleteSpentInitialAccessTokens(conn: Conn, now: number): Promise<void> {
  await conn.deleteFrom('idp_initial_access_tokens').where((eb) => eb.or([eb('expires_at', '<=', now), eb('uses_left', '<=', 0)])).execute();
}

export async function deleteInitialAccessToken(conn: Conn, id: number): Promise<boolean> {
  const result = await conn.deleteFrom('idp_initial_access_tokens').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether the token with this hash may still register a client at `now` (without taking a use). */
export async function initialAccessTokenUsable(conn: Conn, tokenHash: string, now: number): Promise<boolean> {
  const row = await conn
    .selectFrom('idp_initial_access_tokens')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) => eb.or([eb('uses_left', 'is', null), eb('uses_left', '>', 0)]))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes one use of the token with this hash, if it is still good at `now`:
 * one statement, so that two registrations racing for the last use cannot
 * both have it. Answers the token's id, or null.
 */
export async function useInitialAccessToken(conn: Conn, tokenHash: string, now: number): Promise<number | null> {
  const row = await conn
    .updateTable('idp_initial_access_tokens')
    .set((eb) => ({ uses_left: eb('uses_left', '-', 1) }))
    .where('token_hash', '=', tokenHash)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) => eb.or([eb('uses_left', 'is', null), eb('uses_left', '>', 0)]))
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function insertClientRegistration(conn: Conn, registration: ClientRegistrationRecord, accessTokenHash: string): Promise<void> {
  await conn
    .insertInto('idp_client_registrations')
    .values({
      client_id: registration.clientId,
      access_token_hash: accessTokenHash,
      initial_access_token_id: registration.initialAccessTokenId,
      metadata: JSON.stringify(registration.metadata),
      created_at: registration.createdAt,
    })
    .execute();
}

/** The registration whose management token has this hash. */
export async function findClientRegistration(conn: Conn, accessTokenHash: string): Promise<ClientRegistrationRecord | null> {
  const row = await conn.selectFrom('idp_client_registrations').selectAll().where('access_token_hash', '=', accessTokenHash).executeTakeFirst();
  if (!row) return null;
  return { clientId: row.client_id, initialAccessTokenId: row.initial_access_token_id, metadata: JSON.parse(row.metadata) as Record<string, unknown>, createdAt: Number(row.created_at) };
}

export async function setClientRegistrationMetadata(conn: Conn, clientId: string, metadata: Record<string, unknown>): Promise<void> {
  await conn.updateTable('idp_client_registrations').set({ metadata: JSON.stringify(metadata) }).where('client_id', '=', clientId).execute();
}
