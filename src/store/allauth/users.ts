import { hasColumn, sourceBool, sourceMillis, SourceError, type AllauthSource, type AuthUserTable } from './source.js';

/** A source user, as the importer needs it; absent columns read as Django's defaults. */
export interface SourceUser {
  id: number;
  /** Django's encoded hash: "<algorithm>$...", or "!..." for an unusable password. */
  password: string;
  username: string | null;
  /** auth_user.email: empty when none. */
  email: string;
  isActive: boolean;
  dateJoined: number | null;
  lastLogin: number | null;
  /** auth_user's names: '' when none (or no such column). */
  firstName: string;
  lastName: string;
  /** Django's staff and superusers: the admin role here. */
  isStaffOrSuperuser: boolean;
}

const REQUIRED = ['id', 'password'] as const;
const OPTIONAL = ['username', 'email', 'first_name', 'last_name', 'is_active', 'is_staff', 'is_superuser', 'date_joined', 'last_login'] as const;

/** Throws SourceError unless the user table exists with an id and a password. */
export function checkUserTable(source: AllauthSource): void {
  const table = source.userTable;
  if (!source.tables.has(table)) throw new SourceError(`the source has no table ${table}`);
  for (const column of REQUIRED) {
    if (!hasColumn(source, table, column)) throw new SourceError(`${table} has no column ${column}`);
  }
}

function userTable(source: AllauthSource) {
  return source.conn.selectFrom(source.userTable as 'auth_user');
}

export async function countUsers(source: AllauthSource): Promise<number> {
  const row = await userTable(source).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The next `limit` users after `afterId`, by id. */
export async function readUsers(source: AllauthSource, afterId: number, limit: number): Promise<SourceUser[]> {
  const present = OPTIONAL.filter((column) => hasColumn(source, source.userTable, column));
  const rows = (await userTable(source)
    .select([...REQUIRED, ...present])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute()) as Array<Pick<AuthUserTable, 'id' | 'password'> & Partial<AuthUserTable>>;
  return rows.map((row) => ({
    id: Number(row.id),
    password: row.password,
    username: row.username || null,
    email: row.email ?? '',
    // AbstractBaseUser without the column treats everyone as active.
    isActive: row.is_active === undefined ? true : sourceBool(row.is_active),
    dateJoined: sourceMillis(row.date_joined ?? null),
    lastLogin: sourceMillis(row.last_login ?? null),
    firstName: row.first_name ?? '',
    lastName: row.last_name ?? '',
    isStaffOrSuperuser: (row.is_staff !== undefined && sourceBool(row.is_staff)) || (row.is_superuser !== undefined && sourceBool(row.is_superuser)),
  }));
}

/** The stored hashes of the given users (sessions are bound to them), by id. */
export async function readPasswordHashes(source: AllauthSource, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await userTable(source).select(['id', 'password']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [Number(row.id), row.password]));
}
