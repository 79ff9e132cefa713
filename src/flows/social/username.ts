import type { Deps } from '../context.js';
import type { Identity } from '../../social/provider-type.js';
import type { Conn } from '../../store/db.js';
import { usernameExists } from '../../store/users.js';
import { usernameError } from '../validate.js';

// A username for a new social user, when usernames are a signup field: the
// provider's own when it is valid and free, else one made from the name or
// address with a random number when needed. Taken names are retried by the
// caller (the unique index decides), so concurrent signups of two people
// with the same first name both succeed.

const MAX_BASE = 30;

function sanitize(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.@+-]/g, '')
    .slice(0, MAX_BASE);
}

function base(deps: Deps, identity: Identity): string {
  const local = identity.emails[0]?.email.split('@')[0];
  for (const candidate of [identity.username, identity.firstName, identity.lastName, local]) {
    const clean = candidate ? sanitize(candidate) : '';
    if (clean && !usernameError(deps.config, clean)) return clean;
  }
  return 'user';
}

/** Null when usernames are not collected; otherwise a valid username, free when this was called. */
export async function pickUsername(deps: Deps, conn: Conn, identity: Identity, attempt: number): Promise<string | null> {
  if (!deps.config.account.signupFields.username) return null;
  const given = identity.username;
  if (attempt === 0 && given && !usernameError(deps.config, given) && !(await usernameExists(conn, given))) return given;
  const stem = base(deps, identity);
  if (attempt === 0 && !(await usernameExists(conn, stem))) return stem;
  for (let i = 0; i < 5; i++) {
    // Four digits, then more as collisions go on.
    const candidate = `${stem}${Math.floor(Math.random() * 10 ** (4 + attempt + i))}`;
    if (!usernameError(deps.config, candidate) && !(await usernameExists(conn, candidate))) return candidate;
  }
  return `${stem}${Date.now()}`;
}
