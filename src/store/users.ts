import type { Conn, Tx } from './db.js';
import { prepared } from './prepared.js';
import type { User } from '../domain/user.js';

// Users joined to their primary email address: the shape every flow needs.
function selectUsers(conn: Conn) {
  return conn
    .selectFrom('users')
    .leftJoin('email_addresses as e', (j) => j.onRef('e.user_id', '=', 'users.id').on('e.is_primary', '=', 1))
    .select([
      'users.id',
      'users.username',
      'users.password_hash',
      'users.is_active',
      'users.password_changed_at',
      'e.email',
      'e.verified',
    ]);
}

type UserRow = {
  id: number;
  username: string | null;
  password_hash: string | null;
  is_active: number;
  password_changed_at: number;
  email: string | null;
  verified: number | null;
};

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: row.verified === 1,
    passwordHash: row.password_hash,
    isActive: row.is_active === 1,
    passwordChangedAt: row.password_changed_at,
  };
}

export async function findUserById(conn: Conn, id: number): Promise<User | null> {
  const row = await selectUsers(conn).where('users.id', '=', id).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function findUserByUsername(conn: Conn, username: string): Promise<User | null> {
  const row = await selectUsers(conn).where('users.username_lower', '=', username.toLowerCase()).executeTakeFirst();
  return row ? toUser(row) : null;
}

/** The user owning an address, verified or not, with their primary address. */
const userByEmail = prepared((conn: Conn, emailLower: string) =>
  selectUsers(conn).innerJoin('email_addresses as owned', 'owned.user_id', 'users.id').where('owned.email_lower', '=', emailLower),
);

export async function findUserByEmail(conn: Conn, email: string): Promise<User | null> {
  const [row] = await userByEmail(conn, email.toLowerCase());
  return row ? toUser(row) : null;
}

export async function usernameExists(conn: Conn, username: string): Promise<boolean> {
  const row = await conn.selectFrom('users').select('id').where('username_lower', '=', username.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

export interface NewUser {
  username: string | null;
  passwordHash: string | null;
  email: string | null;
  emailVerified: boolean;
  now: number;
}

/**
 * Creates the user and its primary address in one transaction. Returns null
 * when the address or username was taken meanwhile (unique constraint), so a
 * race between two signups has one winner and no half-made account.
 */
export async function createUser(tx: Tx, input: NewUser): Promise<{ userId: number; emailAddressId: number | null } | null> {
  const taken = await tx
    .selectFrom('users')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('username_lower', '=', input.username?.toLowerCase() ?? null),
        eb.exists(eb.selectFrom('email_addresses').select('id').where('email_lower', '=', input.email?.toLowerCase() ?? '')),
      ]),
    )
    .executeTakeFirst();
  if (taken) return null;
  return insertUser(tx, input);
}

/**
 * Inserts the user and its primary address without looking first: the
 * unique indexes decide, and when either is taken nothing is left behind
 * and null comes back. Taken or not, the same statements run.
 */
export async function insertUser(tx: Tx, input: NewUser): Promise<{ userId: number; emailAddressId: number | null } | null> {
  const user = await tx
    .insertInto('users')
    .values({
      username: input.username,
      username_lower: input.username?.toLowerCase() ?? null,
      password_hash: input.passwordHash,
      created_at: input.now,
      password_changed_at: input.now,
    })
    // A concurrent signup that has not committed is invisible to any check;
    // on PostgreSQL the unique index makes this insert wait for it, and
    // DO NOTHING turns its win into "taken" instead of an exception.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!user) return null;
  let emailAddressId: number | null = null;
  if (input.email) {
    const address = await tx
      .insertInto('email_addresses')
      .values({
        user_id: user.id,
        email: input.email,
        email_lower: input.email.toLowerCase(),
        verified: input.emailVerified ? 1 : 0,
        is_primary: 1,
        created_at: input.now,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!address) {
      await tx.deleteFrom('users').where('id', '=', user.id).execute();
      return null;
    }
    emailAddressId = address.id;
  }
  return { userId: user.id, emailAddressId };
}

/** Sets the password hash; null leaves the account without a usable password. */
export async function setPasswordHash(conn: Conn, userId: number, hash: string | null, changedAt: number | null): Promise<void> {
  await conn
    .updateTable('users')
    .set(changedAt === null ? { password_hash: hash } : { password_hash: hash, password_changed_at: changedAt })
    .where('id', '=', userId)
    .execute();
}

/**
 * Locks the user's row until the transaction ends (a no-op write, so it works
 * on both dialects): checks such as "is this the last way to log in" then
 * cannot interleave with a concurrent change.
 */
export async function lockUser(tx: Tx, userId: number): Promise<void> {
  await tx.updateTable('users').set((eb) => ({ is_active: eb.ref('is_active') })).where('id', '=', userId).execute();
}

/**
 * Sets a new password only if the stored one is still the one last changed
 * at `changedAt`: of parallel resets with one key, exactly one wins.
 */
export async function replacePasswordHash(conn: Conn, userId: number, hash: string, now: number, changedAt: number): Promise<boolean> {
  const result = await conn
    .updateTable('users')
    .set({ password_hash: hash, password_changed_at: now })
    .where('id', '=', userId)
    .where('password_changed_at', '=', changedAt)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

const recordLoginRow = prepared((conn: Conn, userId: number, now: number) => conn.updateTable('users').set({ last_login_at: now }).where('id', '=', userId));

export async function recordLogin(conn: Conn, userId: number, now: number): Promise<void> {
  await recordLoginRow(conn, userId, now);
}

/**
 * Deletes the user; addresses, sessions and keys go with it (foreign keys
 * cascade), so the address is free again. False when it was already gone.
 */
export async function deleteUser(conn: Conn, userId: number): Promise<boolean> {
  const result = await conn.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
