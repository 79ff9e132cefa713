import type { Conn } from './db.js';

export interface SocialAccount {
  id: number;
  userId: number;
  provider: string;
  uid: string;
  extraData: Record<string, unknown>;
}

type Row = { id: number; user_id: number; provider: string; uid: string; extra_data: string };

function toSocialAccount(row: Row): SocialAccount {
  return { id: row.id, userId: row.user_id, provider: row.provider, uid: row.uid, extraData: JSON.parse(row.extra_data) as Record<string, unknown> };
}

const COLUMNS = ['id', 'user_id', 'provider', 'uid', 'extra_data'] as const;

export async function findSocialAccount(conn: Conn, provider: string, uid: string): Promise<SocialAccount | null> {
  const row = await conn.selectFrom('social_accounts').select(COLUMNS).where('provider', '=', provider).where('uid', '=', uid).executeTakeFirst();
  return row ? toSocialAccount(row) : null;
}

/** A user's social accounts, oldest first. */
export async function listUserSocialAccounts(conn: Conn, userId: number): Promise<SocialAccount[]> {
  const rows = await conn.selectFrom('social_accounts').select(COLUMNS).where('user_id', '=', userId).orderBy('id').execute();
  return rows.map(toSocialAccount);
}

/**
 * Connects (provider, uid) to the user. Null when the pair is already
 * connected, to anyone, meanwhile included: the unique constraint decides,
 * so two concurrent first logins cannot both create it.
 */
export async function insertSocialAccount(
  conn: Conn,
  input: { userId: number; provider: string; uid: string; extraData: Record<string, unknown>; now: number; lastLoginAt?: number },
): Promise<SocialAccount | null> {
  const row = await conn
    .insertInto('social_accounts')
    .values({
      user_id: input.userId,
      provider: input.provider,
      uid: input.uid,
      extra_data: JSON.stringify(input.extraData),
      created_at: input.now,
      // An imported account keeps its last login; a new one was just used.
      last_login_at: input.lastLoginAt ?? input.now,
    })
    .onConflict((oc) => oc.columns(['provider', 'uid']).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toSocialAccount(row) : null;
}

/** What the provider said at this login. */
export async function recordSocialLogin(conn: Conn, id: number, extraData: Record<string, unknown>, now: number): Promise<void> {
  await conn.updateTable('social_accounts').set({ extra_data: JSON.stringify(extraData), last_login_at: now }).where('id', '=', id).execute();
}

export async function deleteSocialAccount(conn: Conn, id: number): Promise<void> {
  await conn.deleteFrom('social_accounts').where('id', '=', id).execute();
}

/** Which of the given accounts still exist. */
export async function existingSocialAccountIds(conn: Conn, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await conn.selectFrom('social_accounts').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}
