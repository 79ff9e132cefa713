import type { Config } from '../config/config.js';
import type { ProfileValue, User } from '../domain/user.js';

// The wire views of a user's names and custom profile fields: the profile
// endpoint's (everything the user may read and change) and the extra keys
// HEADLESS_USER_FIELDS adds to the user object. Only fields the schema
// declares now are shown: a value kept from a field since removed is not.

function nameOrField(user: User, field: string): ProfileValue | undefined {
  if (field === 'first_name') return user.firstName;
  if (field === 'last_name') return user.lastName;
  return user.profile[field];
}

/** GET|PATCH /account/profile's data. */
export function profileView(config: Config, user: User): Record<string, ProfileValue> {
  const view: Record<string, ProfileValue> = { first_name: user.firstName, last_name: user.lastName };
  for (const { name } of config.profile.fields) {
    const value = user.profile[name];
    if (value !== undefined) view[name] = value;
  }
  return view;
}

/** The keys HEADLESS_USER_FIELDS adds to the wire's user object (none by default, as in the reference). */
export function userObjectFields(config: Config, user: User): Record<string, ProfileValue> {
  const extra: Record<string, ProfileValue> = {};
  for (const field of config.profile.userFields) {
    const value = nameOrField(user, field);
    if (value !== undefined) extra[field] = value;
  }
  return extra;
}
