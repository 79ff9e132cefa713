import type { Config } from '../../config/config.js';
import type { User } from '../../domain/user.js';
import type { Db } from '../../store/db.js';
import { setUserNames, setUserProfile } from '../../store/users.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import type { ProfileChange } from './profile-fields.js';

// Saving a checked change of names and profile fields, for the user's own
// endpoint and the admin API alike: the rows and the `profile.changed`
// event in one transaction, and no event when nothing changed.

/** The names and fields the change sets to something else than the user has. */
export function changedFields(user: User, change: ProfileChange): string[] {
  const changed: string[] = [];
  if (change.firstName !== undefined && change.firstName !== user.firstName) changed.push('first_name');
  if (change.lastName !== undefined && change.lastName !== user.lastName) changed.push('last_name');
  if (change.profile) {
    // Sorted: the event reads the same whatever order the values were stored or sent in.
    const names = [...new Set([...Object.keys(user.profile), ...Object.keys(change.profile)])].sort();
    for (const name of names) if (user.profile[name] !== change.profile[name]) changed.push(name);
  }
  return changed;
}

/** Applies the change; answers which fields it changed (none: nothing written). */
export async function saveProfileChange(deps: { config: Config; db: Db }, source: AuditSource, user: User, change: ProfileChange): Promise<string[]> {
  const fields = changedFields(user, change);
  if (fields.length === 0) return fields;
  await deps.db.transaction().execute(async (tx) => {
    await setUserNames(tx, user.id, change);
    if (change.profile) await setUserProfile(tx, user.id, change.profile);
    await recordEvent(deps, tx, source, 'profile.changed', { userId: user.id, detail: { fields } });
  });
  return fields;
}
