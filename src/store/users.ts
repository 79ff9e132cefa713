import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Conn, Tx } from './db.js';
import type { Database } from './schema.js';
import { prepared } from './prepared.js';
import { indexProfile, usersWithProfileValue } from './user-profile-values.js';
import type { ProfileValue, ProfileValues, User } from '../domain/user.js';

// Users joined to their primary email address: the shape every flow needs.
// `afterId` repeats a page's lower bound on the addresses' side: PostgreSQL
// then starts a merge join at it instead of reading every address before.
function selectUsers(conn: Conn, afterId?: number) {
  return conn
    .selectFrom('users')
    .leftJoin('email_addresses as e', (j) => {
      const joined = j.onRef('e.user_id', '=', 'users.id').on('e.is_primary', '=', 1);
      return afterId === undefined ? joined : joined.on('e.user_id', '>', afterId);
    })
    .select([
      'users.id',
      'users.username',
      'users.password_hash',
      'users.is_active',
      'users.password_changed_at',
      'users.language',
      'users.first_name',
      'users.last_name',
      'users.profile',
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
  language: string | null;
  first_name: string;
  last_name: string;
  profile: string;
  email: string | null;
  verified: number | null;
};

/** users.profile as stored: a JSON object ('{}', the default, read without parsing). */
export function parseProfile(text: string): ProfileValues {
  return text === '{}' ? EMPTY_PROFILE : (JSON.parse(text) as ProfileValues);
}

const EMPTY_PROFILE: ProfileValues = Object.freeze({});

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: row.verified === 1,
    passwordHash: row.password_hash,
    isActive: row.is_active === 1,
    passwordChangedAt: row.password_changed_at,
    language: row.language,
    firstName: row.first_name,
    lastName: row.last_name,
    profile: parseProfile(row.profile),
  };
}

export async function findUserById(conn: Conn, id: number): Promise<User | null> {
  const row = await selectUsers(conn).where('users.id', '=', id).executeTakeFirst();
  return row ? toUser(row) : null;
}

/** The users with the given ids that exist, by id. */
export async function findUsersByIds(conn: Conn, ids: number[]): Promise<Map<number, User>> {
  if (ids.length === 0) return new Map();
  const rows = await selectUsers(conn).where('users.id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, toUser(row)]));
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

/** A user as an administrator lists them: the account with its dates. */
export interface UserOverview {
  id: number;
  username: string | null;
  /** The primary address. */
  email: string | null;
  emailVerified: boolean;
  isActive: boolean;
  passwordHash: string | null;
  createdAt: number;
  lastLoginAt: number | null;
  /** May use the admin console. */
  isAdmin: boolean;
  /** The language the user last used (users.language); null: none named yet. */
  language: string | null;
  firstName: string;
  lastName: string;
  profile: ProfileValues;
}

function selectOverviews(conn: Conn, afterId?: number) {
  return selectUsers(conn, afterId).select(['users.created_at', 'users.last_login_at', 'users.is_admin']);
}

function toOverview(row: UserRow & { created_at: number; last_login_at: number | null; is_admin: number }): UserOverview {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: row.verified === 1,
    isActive: row.is_active === 1,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
    isAdmin: row.is_admin === 1,
    language: row.language,
    firstName: row.first_name,
    lastName: row.last_name,
    profile: parseProfile(row.profile),
  };
}

export async function findUserOverview(conn: Conn, id: number): Promise<UserOverview | null> {
  const row = await selectOverviews(conn).where('users.id', '=', id).executeTakeFirst();
  return row ? toOverview(row) : null;
}

/**
 * The orders users are listed in: by id (the default), when they joined, or
 * when they last logged in; `-` for descending. Each is a keyset order on
 * (sort key, id), on an index of that pair (migration 027). Never having
 * logged in counts as a last login at 0: longest ago.
 */
export const USER_ORDERS = ['id', '-id', 'created_at', '-created_at', 'last_login_at', '-last_login_at'] as const;
export type UserOrder = (typeof USER_ORDERS)[number];

/** The sort key of a user in an order (a number in each of them). */
export function sortKeyOf(order: UserOrder, user: UserOverview): number {
  const column = order.replace(/^-/, '');
  return column === 'created_at' ? user.createdAt : column === 'last_login_at' ? (user.lastLoginAt ?? 0) : user.id;
}

/** A place in an order: pages start after it, or (`backward`) end before it. */
export interface UserPosition {
  key: number;
  id: number;
  backward: boolean;
}

/** Which users: every filter given must hold. */
export interface UserFilters {
  /** Part of a username or of any address (a scan: fine for a console, slow on millions of users). */
  search?: string;
  active?: boolean;
  admin?: boolean;
  /** Has a verified address (true) or none (false). */
  verified?: boolean;
  /** Exact matches, each on a unique index. */
  id?: number;
  email?: string;
  username?: string;
  /** E.164. */
  phone?: string;
  /** Users whose custom profile field has this value (text case-insensitively), on its index. */
  profile?: { field: string; value: ProfileValue };
}

export interface UserQuery extends UserFilters {
  limit: number;
  /** Default 'id'. */
  order?: UserOrder;
  /** Where the page is; none: the first page. */
  position?: UserPosition;
  /** In order 'id', the same as a position after this id. */
  afterId?: number;
}

/**
 * Users a page at a time in one of USER_ORDERS, in that order (backward
 * pages too), on keyset paging: as fast on page 10,000 as on the first,
 * and never skipping or repeating a user however many are added meanwhile.
 * `search` matches part of a username, a name or any of a user's
 * addresses, case-insensitively; `email`, `username`, `phone` and `id`
 * match exactly.
 */
export async function listUserOverviews(conn: Conn, query: UserQuery): Promise<UserOverview[]> {
  const position = positionOf(query);
  let rows = await userQuery(conn, query, 'ties').execute();
  // In order, the users that share the position's key come before those beyond it.
  if (position && (query.order ?? 'id').replace(/^-/, '') !== 'id' && rows.length < query.limit) {
    rows = [...rows, ...(await userQuery(conn, { ...query, limit: query.limit - rows.length }, 'beyond').execute())];
  }
  const users = rows.map(toOverview);
  return position?.backward ? users.reverse() : users;
}

/** How many users match the filters (every one of them is counted: a read of all that match). */
export async function countUsers(conn: Conn, filters: UserFilters): Promise<number> {
  const row = await conn
    .selectFrom('users')
    .where((eb) => eb.and(conditions(conn, eb, filters)))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The SQL of listUserOverviews, for a look at its plan (bench/admin-paging.ts):
 * from a position in an order other than id, the users that share its key
 * (`ties`), then those beyond it (`beyond`).
 */
export function listUserQuery(conn: Conn, query: UserQuery, part: 'ties' | 'beyond' = 'ties') {
  return userQuery(conn, query, part).compile();
}

function positionOf(query: UserQuery): UserPosition | undefined {
  return query.position ?? (query.afterId ? { key: query.afterId, id: query.afterId, backward: false } : undefined);
}

// The sort keys, written as the indexes of migration 027 are (the
// coalesce with a literal 0, so that the planners match it to the index).
const SORT_KEYS = {
  id: sql<number>`${sql.ref('users.id')}`,
  created_at: sql<number>`${sql.ref('users.created_at')}`,
  last_login_at: sql<number>`coalesce(${sql.ref('users.last_login_at')}, 0)`,
};

/**
 * A page from a position, in one statement for the id order; for the others
 * in two, each a seek on the (key, id) index: the users sharing the
 * position's key beyond its id (`ties`), then those with a key beyond it
 * (`beyond`). A row comparison `(key, id) < (k, i)` would be one statement,
 * but SQLite seeks on its first column only and then reads every tie: all
 * the users who never logged in, for the last login order.
 */
function userQuery(conn: Conn, query: UserQuery, part: 'ties' | 'beyond') {
  const order = query.order ?? 'id';
  const position = positionOf(query);
  const column = order.replace(/^-/, '') as keyof typeof SORT_KEYS;
  // Going back reads the other way from the position, then turns the page round.
  const descending = order.startsWith('-') !== (position?.backward ?? false);
  const direction = descending ? 'desc' : 'asc';
  const after = descending ? '<' : '>';
  // The merge-join hint of selectUsers holds in ascending id order only.
  const hint = column === 'id' && !descending && position ? position.id : undefined;
  let select = selectOverviews(conn, hint).where((eb) => eb.and(conditions(conn, eb, query)));
  if (position && column === 'id') select = select.where('users.id', after, position.id);
  else if (position && part === 'ties') select = select.where(sql<boolean>`${SORT_KEYS[column]} = ${position.key}`).where('users.id', after, position.id);
  else if (position) select = select.where(sql<boolean>`${SORT_KEYS[column]} ${sql.raw(after)} ${position.key}`);
  // The ties share one key: their id orders them (and SQLite then needs no sort of its own).
  if (column !== 'id' && !(position && part === 'ties')) select = select.orderBy(SORT_KEYS[column], direction);
  return select.orderBy('users.id', direction).limit(query.limit);
}

function conditions(conn: Conn, eb: ExpressionBuilder<Database, 'users'>, query: UserFilters): Expression<SqlBool>[] {
  const all: Expression<SqlBool>[] = [];
  if (query.active !== undefined) all.push(eb('users.is_active', '=', query.active ? 1 : 0));
  if (query.admin !== undefined) all.push(eb('users.is_admin', '=', query.admin ? 1 : 0));
  if (query.id !== undefined) all.push(eb('users.id', '=', query.id));
  if (query.username !== undefined) all.push(eb('users.username_lower', '=', query.username.toLowerCase()));
  if (query.verified !== undefined) {
    const verified = eb.exists(eb.selectFrom('email_addresses as v').select('v.id').whereRef('v.user_id', '=', 'users.id').where('v.verified', '=', 1));
    all.push(query.verified ? verified : eb.not(verified));
  }
  // The exact filters drive from their unique index (an IN list the planner
  // reads first) rather than a check per user along the id order, which
  // would read every user before the one that matches.
  if (query.email !== undefined) {
    all.push(eb('users.id', 'in', conn.selectFrom('email_addresses as exact').select('exact.user_id').where('exact.email_lower', '=', query.email.toLowerCase())));
  }
  if (query.phone !== undefined) {
    all.push(eb('users.id', 'in', conn.selectFrom('phone_numbers as p').select('p.user_id').where('p.phone', '=', query.phone)));
  }
  if (query.profile !== undefined) all.push(eb('users.id', 'in', usersWithProfileValue(conn, query.profile.field, query.profile.value)));
  if (query.search) {
    // LIKE with its wildcards escaped: the text is matched as typed.
    const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    all.push(
      eb.or([
        sql<boolean>`${sql.ref('users.username_lower')} like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('users.first_name')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('users.last_name')}) like ${pattern} escape '\\'`,
        eb.exists(
          eb
            .selectFrom('email_addresses as any_address')
            .select('any_address.id')
            .whereRef('any_address.user_id', '=', 'users.id')
            .where(sql<boolean>`${sql.ref('any_address.email_lower')} like ${pattern} escape '\\'`),
        ),
      ]),
    );
  }
  return all;
}

/** Gives or takes the admin role; false when there is no such user. */
export async function setUserAdmin(conn: Conn, userId: number, admin: boolean): Promise<boolean> {
  const result = await conn.updateTable('users').set({ is_admin: admin ? 1 : 0 }).where('id', '=', userId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether the user (active or not) has the admin role. */
export async function isUserAdmin(conn: Conn, userId: number): Promise<boolean> {
  const row = await conn.selectFrom('users').select('is_admin').where('id', '=', userId).executeTakeFirst();
  return row?.is_admin === 1;
}

/** Sets the username (null: none); false when it is taken meanwhile (the unique index decides). */
export async function setUsername(tx: Tx, userId: number, username: string | null): Promise<boolean> {
  const update = tx.updateTable('users').set({ username, username_lower: username?.toLowerCase() ?? null }).where('id', '=', userId);
  const guarded =
    username === null
      ? update
      : update.where((eb) =>
          eb.not(eb.exists(eb.selectFrom('users as other').select('other.id').where('other.username_lower', '=', username.toLowerCase()).whereRef('other.id', '<>', 'users.id'))),
        );
  const result = await guarded.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Many users with their primary addresses in a few statements (500 rows
 * each): for seeding large databases (tests, benchmarks). No checks: the
 * caller brings unique names and addresses.
 */
export async function insertUsersInBulk(tx: Tx, users: ReadonlyArray<{ username: string | null; email: string | null; verified: boolean }>, now: number): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < users.length; start += 500) {
    const chunk = users.slice(start, start + 500);
    const rows = await tx
      .insertInto('users')
      .values(chunk.map((u) => ({ username: u.username, username_lower: u.username?.toLowerCase() ?? null, password_hash: null, created_at: now, password_changed_at: now })))
      .returning('id')
      .execute();
    const made = rows.map((r) => r.id).sort((a, b) => a - b);
    const addresses = chunk.flatMap((u, i) => (u.email ? [{ user_id: made[i]!, email: u.email, email_lower: u.email.toLowerCase(), verified: u.verified ? 1 : 0, is_primary: 1, created_at: now }] : []));
    if (addresses.length > 0) await tx.insertInto('email_addresses').values(addresses).execute();
    ids.push(...made);
  }
  return ids;
}

/** Enables or disables login for the user; false when there is no such user. */
export async function setUserActive(conn: Conn, userId: number, active: boolean): Promise<boolean> {
  const result = await conn.updateTable('users').set({ is_active: active ? 1 : 0 }).where('id', '=', userId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Adds a user brought over from another system, with its own dates and
 * password hash (in that system's format, verified and re-hashed at the next
 * login). Null when the username is taken, meanwhile included.
 */
export async function insertImportedUser(
  conn: Conn,
  input: { username: string | null; passwordHash: string | null; isActive: boolean; createdAt: number; lastLoginAt: number | null; firstName: string; lastName: string; now: number },
): Promise<number | null> {
  const row = await conn
    .insertInto('users')
    .values({
      username: input.username,
      username_lower: input.username?.toLowerCase() ?? null,
      password_hash: input.passwordHash,
      is_active: input.isActive ? 1 : 0,
      created_at: input.createdAt,
      last_login_at: input.lastLoginAt,
      password_changed_at: input.now,
      first_name: input.firstName,
      last_name: input.lastName,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export interface NewUser {
  username: string | null;
  passwordHash: string | null;
  email: string | null;
  emailVerified: boolean;
  now: number;
  /** The language of the signup request; null or absent: it named none. */
  language?: string | null;
  /** Signup's ACCOUNT_SIGNUP_FIELDS names and ACCOUNT_PROFILE_SCHEMA fields, when given. */
  firstName?: string;
  lastName?: string;
  profile?: ProfileValues;
}

/**
 * Creates the user and its primary address in one transaction. Returns null
 * when the address or username was taken meanwhile (unique constraint), so a
 * race between two signups has one winner and no half-made account.
 */
export async function createUser(tx: Tx, input: NewUser): Promise<{ userId: number; emailAddressId: number | null } | null> {
  if (await identifierTaken(tx, input)) return null;
  return insertUser(tx, input);
}

/**
 * Whether the username or the address already has an account: one probe per
 * identifier, each on its unique index and stopping at the first row, so the
 * cost does not grow with the table, under a generic plan (a pooler's named
 * statements) too. One query with OR EXISTS instead returned every user when
 * the address was taken, and read the whole table under a generic plan.
 */
async function identifierTaken(conn: Conn, input: NewUser): Promise<boolean> {
  if (input.username !== null) {
    const user = await conn.selectFrom('users').select('id').where('username_lower', '=', input.username.toLowerCase()).limit(1).executeTakeFirst();
    if (user) return true;
  }
  if (input.email !== null) {
    const address = await conn.selectFrom('email_addresses').select('id').where('email_lower', '=', input.email.toLowerCase()).limit(1).executeTakeFirst();
    if (address) return true;
  }
  return false;
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
      language: input.language ?? null,
      first_name: input.firstName ?? '',
      last_name: input.lastName ?? '',
      profile: JSON.stringify(input.profile ?? {}),
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
  if (input.profile) await indexProfile(tx, user.id, input.profile);
  return { userId: user.id, emailAddressId };
}

/** Sets the names given (undefined: unchanged). */
export async function setUserNames(conn: Conn, userId: number, names: { firstName?: string; lastName?: string }): Promise<void> {
  const set = { ...(names.firstName === undefined ? {} : { first_name: names.firstName }), ...(names.lastName === undefined ? {} : { last_name: names.lastName }) };
  if (Object.keys(set).length === 0) return;
  await conn.updateTable('users').set(set).where('id', '=', userId).execute();
}

/** Replaces the user's profile field values, and their search index rows with them. */
export async function setUserProfile(tx: Tx, userId: number, profile: ProfileValues): Promise<void> {
  await tx.updateTable('users').set({ profile: JSON.stringify(profile) }).where('id', '=', userId).execute();
  await indexProfile(tx, userId, profile);
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
const recordLoginInRow = prepared((conn: Conn, userId: number, now: number, language: string) => conn.updateTable('users').set({ last_login_at: now, language }).where('id', '=', userId));

/** A login now; with `language`, the one it was made in, kept for later mails (null: the request named none, the stored one stays). */
export async function recordLogin(conn: Conn, userId: number, now: number, language: string | null = null): Promise<void> {
  await (language === null ? recordLoginRow(conn, userId, now) : recordLoginInRow(conn, userId, now, language));
}

/** The language the user now uses, when a request of theirs asks for another than the one stored. */
export async function setUserLanguage(conn: Conn, userId: number, language: string): Promise<void> {
  await conn.updateTable('users').set({ language }).where('id', '=', userId).execute();
}

/** When the user last logged in (null: never), which a password reset key is bound to. */
export async function findLastLogin(conn: Conn, userId: number): Promise<number | null> {
  const row = await conn.selectFrom('users').select('last_login_at').where('id', '=', userId).executeTakeFirst();
  return row?.last_login_at ?? null;
}

/**
 * Deletes the user; addresses, sessions and keys go with it (foreign keys
 * cascade), so the address is free again. False when it was already gone.
 */
export async function deleteUser(conn: Conn, userId: number): Promise<boolean> {
  const result = await conn.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
