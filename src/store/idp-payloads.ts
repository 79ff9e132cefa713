import type { Conn } from './db.js';
import { preparedRows } from './prepared.js';

// oidc-provider's persistent state (see idp/adapter.ts): one JSON payload per
// model and id, with the lookups its adapter interface needs (by grant, by
// device user code, by interaction uid) and an expiry. Store functions take
// the id as the adapter decided to key it (hashed for bearer secrets).

export interface PayloadRow {
  payload: string;
  expiresAt: number | null;
  consumedAt: number | null;
}

export interface PayloadWrite {
  model: string;
  id: string;
  payload: string;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  accountId: string | null;
  issuer: string | null;
  expiresAt: number | null;
}

export async function upsertPayload(conn: Conn, row: PayloadWrite): Promise<void> {
  await upsertPayloads(conn, [row]);
}

const valuesOf = (row: PayloadWrite) => ({
  model: row.model,
  id: row.id,
  payload: row.payload,
  grant_id: row.grantId,
  user_code: row.userCode,
  uid: row.uid,
  account_id: row.accountId,
  issuer: row.issuer,
  expires_at: row.expiresAt,
  consumed_at: null,
});

const upsertPayloadRows = preparedRows<ReturnType<typeof valuesOf>>(['model', 'id', 'payload', 'grant_id', 'user_code', 'uid', 'account_id', 'issuer', 'expires_at', 'consumed_at'], (conn, values) =>
  conn
    .insertInto('idp_payloads')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['model', 'id']).doUpdateSet((eb) => ({
        payload: eb.ref('excluded.payload'),
        grant_id: eb.ref('excluded.grant_id'),
        user_code: eb.ref('excluded.user_code'),
        uid: eb.ref('excluded.uid'),
        account_id: eb.ref('excluded.account_id'),
        issuer: eb.ref('excluded.issuer'),
        expires_at: eb.ref('excluded.expires_at'),
      })),
    ),
);

/**
 * Writes many payloads in one statement (see WriteBatcher): on SQLite one
 * commit for all of them, on PostgreSQL one round trip; compiled once per
 * batch size (preparedRows), since the token endpoint writes one a token.
 * Ids must be distinct (PostgreSQL refuses to update one row twice in a
 * statement).
 */
export async function upsertPayloads(conn: Conn, rows: readonly PayloadWrite[]): Promise<void> {
  await upsertPayloadRows(conn, rows.map(valuesOf));
}

function live(now: number) {
  return (eb: any) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]);
}

export async function findPayload(conn: Conn, model: string, id: string, now: number): Promise<PayloadRow | null> {
  const row = await conn
    .selectFrom('idp_payloads')
    .select(['payload', 'expires_at', 'consumed_at'])
    .where('model', '=', model)
    .where('id', '=', id)
    .where(live(now))
    .executeTakeFirst();
  return row ? { payload: row.payload, expiresAt: row.expires_at === null ? null : Number(row.expires_at), consumedAt: row.consumed_at === null ? null : Number(row.consumed_at) } : null;
}

export async function findPayloadBy(conn: Conn, model: string, column: 'user_code' | 'uid', value: string, now: number): Promise<PayloadRow | null> {
  const row = await conn
    .selectFrom('idp_payloads')
    .select(['payload', 'expires_at', 'consumed_at'])
    .where('model', '=', model)
    .where(column, '=', value)
    .where(live(now))
    .executeTakeFirst();
  return row ? { payload: row.payload, expiresAt: row.expires_at === null ? null : Number(row.expires_at), consumedAt: row.consumed_at === null ? null : Number(row.consumed_at) } : null;
}

/** Marks consumed; true only for the caller that consumed it first. */
export async function consumePayload(conn: Conn, model: string, id: string, now: number): Promise<boolean> {
  const result = await conn.updateTable('idp_payloads').set({ consumed_at: now }).where('model', '=', model).where('id', '=', id).where('consumed_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function destroyPayload(conn: Conn, model: string, id: string): Promise<void> {
  await conn.deleteFrom('idp_payloads').where('model', '=', model).where('id', '=', id).execute();
}

/** Every token, code and grant of one grant: the family a replayed refresh token revokes. */
export async function destroyGrant(conn: Conn, grantId: string): Promise<void> {
  await conn.deleteFrom('idp_payloads').where('grant_id', '=', grantId).execute();
}

/** The grants of a user (for logout: which clients to tell, which tokens to end). */
export async function grantsOfAccount(conn: Conn, accountId: string, now: number): Promise<Array<{ payload: string; issuer: string | null }>> {
  return conn.selectFrom('idp_payloads').select(['payload', 'issuer']).where('model', '=', 'Grant').where('account_id', '=', accountId).where(live(now)).execute();
}

/**
 * Revokes everything the provider holds for a user: their grants, the
 * tokens and codes of those grants (access and refresh tokens, authorization
 * and device codes), and every other row bound to the account (the
 * provider's sessions and interactions). Answers how many grants there were.
 * Works whether or not the provider is enabled (the table is always there).
 */
export async function revokeUserProviderGrants(conn: Conn, accountId: string): Promise<number> {
  const grants = await conn.selectFrom('idp_payloads').select('payload').where('model', '=', 'Grant').where('account_id', '=', accountId).execute();
  // A grant's own id is only in its payload (its row is keyed by the id's hash); its tokens name it in grant_id.
  const grantIds = grants.map((g) => (JSON.parse(g.payload) as { jti?: string }).jti).filter((id): id is string => typeof id === 'string');
  if (grantIds.length > 0) await conn.deleteFrom('idp_payloads').where('grant_id', 'in', grantIds).execute();
  await conn.deleteFrom('idp_payloads').where('account_id', '=', accountId).execute();
  return grants.length;
}

export async function deleteExpiredPayloads(conn: Conn, now: number): Promise<void> {
  await conn.deleteFrom('idp_payloads').where('expires_at', '<=', now).execute();
}
