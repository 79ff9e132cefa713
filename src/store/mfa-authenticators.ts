import { sql } from 'kysely';
import type { Conn } from './db.js';
import { prepared } from './prepared.js';
import { typesOf, type Authenticator, type AuthenticatorType, type WebAuthnAuthenticator } from '../domain/authenticator.js';

// A user's second factors. Every "used once" decision is a conditional
// UPDATE that only one request can win, on SQLite and PostgreSQL alike.

type Row = {
  id: number;
  user_id: number;
  type: string;
  secret: string | null;
  used_mask: number;
  counter: number | null;
  credential_id: string | null;
  data: string;
  created_at: number;
  last_used_at: number | null;
};

type WebAuthnData = { name: string; publicKey: string; transports: string[]; passwordless: boolean | null };

function toAuthenticator(row: Row): Authenticator {
  const common = { id: row.id, userId: row.user_id, createdAt: row.created_at, lastUsedAt: row.last_used_at };
  const data = JSON.parse(row.data) as Record<string, unknown>;
  switch (row.type) {
    case 'totp':
      return { ...common, type: 'totp', sealedSecret: row.secret!, lastCounter: row.counter };
    case 'recovery_codes':
      return { ...common, type: 'recovery_codes', sealedSeed: row.secret!, usedMask: Number(row.used_mask), viewedAt: (data.viewedAt as number | undefined) ?? null };
    default: {
      const w = data as unknown as WebAuthnData;
      return { ...common, type: 'webauthn', credentialId: row.credential_id!, signCount: row.counter ?? 0, name: w.name, publicKey: w.publicKey, transports: w.transports, passwordless: w.passwordless };
    }
  }
}

const columns = ['id', 'user_id', 'type', 'secret', 'used_mask', 'counter', 'credential_id', 'data', 'created_at', 'last_used_at'] as const;

// Prepared: these run on every login (types) and every second factor (the list).
const authenticatorRows = prepared((conn: Conn, userId: number) => conn.selectFrom('mfa_authenticators').select(columns).where('user_id', '=', userId).orderBy('id'));
const typeRows = prepared((conn: Conn, userId: number) => conn.selectFrom('mfa_authenticators').select('type').distinct().where('user_id', '=', userId));

/** The user's authenticators in creation order. */
export async function listAuthenticators(conn: Conn, userId: number): Promise<Authenticator[]> {
  return (await authenticatorRows(conn, userId)).map(toAuthenticator);
}

/** Which types the user has, in the wire order: the one query a login pays when MFA is on. */
export async function authenticatorTypes(conn: Conn, userId: number): Promise<AuthenticatorType[]> {
  return typesOf((await typeRows(conn, userId)) as Array<{ type: AuthenticatorType }>);
}

export async function findAuthenticator<T extends AuthenticatorType>(conn: Conn, userId: number, type: T): Promise<Extract<Authenticator, { type: T }> | null> {
  const row = await conn.selectFrom('mfa_authenticators').select(columns).where('user_id', '=', userId).where('type', '=', type).orderBy('id').executeTakeFirst();
  return row ? (toAuthenticator(row) as Extract<Authenticator, { type: T }>) : null;
}

export async function findWebAuthnByCredentialId(conn: Conn, credentialId: string): Promise<WebAuthnAuthenticator | null> {
  const row = await conn.selectFrom('mfa_authenticators').select(columns).where('credential_id', '=', credentialId).where('type', '=', 'webauthn').executeTakeFirst();
  return row ? (toAuthenticator(row) as WebAuthnAuthenticator) : null;
}

/** What an authenticator brought over from another system keeps of its past use. */
export interface PastUse {
  lastUsedAt: number | null;
}

/** Adds TOTP with its sealed secret; null when the user already has one (a parallel activation won). */
export async function insertTotp(conn: Conn, userId: number, sealedSecret: string, now: number, past?: PastUse): Promise<Authenticator | null> {
  return insertUnique(conn, { user_id: userId, type: 'totp', secret: sealedSecret, data: '{}', created_at: now, last_used_at: past?.lastUsedAt ?? null });
}

/** Adds a set of recovery codes (imported ones with the codes already used); null when the user already has one. */
export async function insertRecoveryCodes(
  conn: Conn,
  userId: number,
  sealedSeed: string,
  now: number,
  past?: PastUse & { usedMask: number; viewedAt: number | null },
): Promise<Authenticator | null> {
  return insertUnique(conn, {
    user_id: userId,
    type: 'recovery_codes',
    secret: sealedSeed,
    used_mask: past?.usedMask ?? 0,
    data: past?.viewedAt == null ? '{}' : JSON.stringify({ viewedAt: past.viewedAt }),
    created_at: now,
    last_used_at: past?.lastUsedAt ?? null,
  });
}

export async function insertWebAuthn(
  conn: Conn,
  input: { userId: number; credentialId: string; signCount: number; now: number } & WebAuthnData,
  past?: PastUse,
): Promise<WebAuthnAuthenticator | null> {
  const data: WebAuthnData = { name: input.name, publicKey: input.publicKey, transports: input.transports, passwordless: input.passwordless };
  return (await insertUnique(conn, {
    user_id: input.userId,
    type: 'webauthn',
    credential_id: input.credentialId,
    counter: input.signCount,
    data: JSON.stringify(data),
    created_at: input.now,
    last_used_at: past?.lastUsedAt ?? null,
  })) as WebAuthnAuthenticator | null;
}

/** The condition of the partial unique index, as a literal: the database must see it matches. */
const PARTIAL_INDEX = sql<boolean>`type <> 'webauthn'`;

type NewRow = Omit<Row, 'id' | 'used_mask' | 'secret' | 'counter' | 'credential_id' | 'last_used_at'> & Partial<Row>;

/**
 * Inserts unless a unique index holds the row already (another TOTP or set
 * of codes for the user, a known credential id): null then. ON CONFLICT
 * rather than a caught error, so a transaction around it stays usable.
 */
async function insertUnique(conn: Conn, values: NewRow): Promise<Authenticator | null> {
  const row = await conn
    .insertInto('mfa_authenticators')
    .values(values)
    .onConflict((oc) => (values.type === 'webauthn' ? oc.column('credential_id').doNothing() : oc.columns(['user_id', 'type']).where(PARTIAL_INDEX).doNothing()))
    .returning(columns)
    .executeTakeFirst();
  return row ? toAuthenticator(row) : null;
}

export async function deleteAuthenticators(conn: Conn, userId: number, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await conn.deleteFrom('mfa_authenticators').where('user_id', '=', userId).where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Recovery codes alone protect nothing: they go once no TOTP or WebAuthn authenticator is left. Answers the ids that went. */
export async function deleteDanglingRecoveryCodes(conn: Conn, userId: number): Promise<number[]> {
  const rows = await conn
    .deleteFrom('mfa_authenticators')
    .where('user_id', '=', userId)
    .where('type', '=', 'recovery_codes')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('mfa_authenticators as other').select('other.id').where('other.user_id', '=', userId).where('other.type', '<>', 'recovery_codes'))),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Accepts a TOTP code of time step `counter`: only if no code of this or a
 * later step was accepted before. The one request that moves the counter wins.
 */
export async function advanceTotpCounter(conn: Conn, id: number, counter: number, now: number): Promise<boolean> {
  return (await advanceCounterRow(conn, counter, now, id, counter)).length > 0;
}

const advanceCounterRow = prepared((conn: Conn, counter: number, now: number, id: number, above: number) =>
  conn
    .updateTable('mfa_authenticators')
    .set({ counter, last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('counter', 'is', null), eb('counter', '<', above)]))
    .returning('id'),
);

/** Marks recovery code `index` used, if it was not: true for the one request that did. */
export async function spendRecoveryCode(conn: Conn, id: number, index: number, now: number): Promise<boolean> {
  const bit = 2 ** index;
  const result = await conn
    .updateTable('mfa_authenticators')
    .set({ used_mask: sql`used_mask + ${bit}`, last_used_at: now })
    .where('id', '=', id)
    .where(sql<boolean>`(used_mask & ${bit}) = 0`)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Records a WebAuthn use with its new signature counter, unless another use of the key got there first. */
export async function recordWebAuthnUse(conn: Conn, id: number, previous: number, next: number, now: number): Promise<boolean> {
  const result = await conn
    .updateTable('mfa_authenticators')
    .set({ counter: next, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', previous)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Re-seals a secret under the current key (after a SECRET_KEY rotation), unless it changed meanwhile. */
export async function resealSecret(conn: Conn, id: number, previous: string, next: string): Promise<void> {
  await conn.updateTable('mfa_authenticators').set({ secret: next }).where('id', '=', id).where('secret', '=', previous).execute();
}

/** The first time recovery codes are shown, for MFA_RECOVERY_CODES_SHOW_ONCE; true for the request that did. */
export async function markRecoveryCodesViewed(conn: Conn, id: number, now: number): Promise<boolean> {
  const result = await conn
    .updateTable('mfa_authenticators')
    .set({ data: JSON.stringify({ viewedAt: now }) })
    .where('id', '=', id)
    .where('data', '=', '{}')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function renameWebAuthn(conn: Conn, authenticator: WebAuthnAuthenticator, name: string): Promise<WebAuthnAuthenticator> {
  const data: WebAuthnData = { name, publicKey: authenticator.publicKey, transports: authenticator.transports, passwordless: authenticator.passwordless };
  await conn.updateTable('mfa_authenticators').set({ data: JSON.stringify(data) }).where('id', '=', authenticator.id).execute();
  return { ...authenticator, name };
}

export async function countWebAuthn(conn: Conn, userId: number): Promise<number> {
  const row = await conn
    .selectFrom('mfa_authenticators')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('type', '=', 'webauthn')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
