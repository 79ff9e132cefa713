import type { Conn, Tx } from './db.js';
import type { ProfileValue, ProfileValues } from '../domain/user.js';

// The search index over users.profile (migrations/020_user_profile.ts): a
// row per field and user, the value as text, so that "users whose company
// is Acme" is one index range instead of a scan parsing every user's JSON.

/** Longer values are kept in users.profile but not indexed: a B-tree entry has a size limit. */
const INDEXED_LENGTH = 255;

/** How a value is matched: text case-insensitively, numbers and booleans as JSON writes them. Null: too long to index. */
export function profileSearchText(value: ProfileValue): string | null {
  const text = typeof value === 'string' ? value.toLowerCase() : JSON.stringify(value);
  return text.length > INDEXED_LENGTH ? null : text;
}

/** Replaces the user's index rows with those of `profile`. */
export async function indexProfile(tx: Tx, userId: number, profile: ProfileValues): Promise<void> {
  await tx.deleteFrom('user_profile_values').where('user_id', '=', userId).execute();
  const rows = Object.entries(profile).flatMap(([field, value]) => {
    const text = profileSearchText(value);
    return text === null ? [] : [{ user_id: userId, field, value: text }];
  });
  if (rows.length > 0) await tx.insertInto('user_profile_values').values(rows).execute();
}

/** The ids of the users whose `field` has `value` (a subquery for the user list's filter). */
export function usersWithProfileValue(conn: Conn, field: string, value: ProfileValue) {
  return conn
    .selectFrom('user_profile_values as pv')
    .select('pv.user_id')
    .where('pv.field', '=', field)
    .where('pv.value', '=', profileSearchText(value) ?? '');
}
