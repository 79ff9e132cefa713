import type { User } from '../domain/user.js';
import { userByEmail, userById, userByUsername } from '../flows/admin/users.js';
import type { AdminDeps } from '../flows/admin/webhooks.js';
import { CliError } from './errors.js';

export const USER_REF_HELP =
  'a user id, an email address or a username; prefix it with id:, email: or username: when it could be read as another (a username made of digits)';

/**
 * Finds the user a command names. A bare reference is read by its look (digits:
 * an id, with "@": an address, else a username), then as a username if that
 * found no one, since Django allows usernames made of digits or with "@".
 */
export async function resolveUser(deps: AdminDeps, ref: string): Promise<User> {
  const prefixed = /^(id|email|username):(.*)$/s.exec(ref);
  const attempts: Array<() => Promise<User | null>> = [];
  if (prefixed) {
    const [, kind, value] = prefixed as unknown as [string, 'id' | 'email' | 'username', string];
    attempts.push(() => findBy(deps, kind, value));
  } else {
    const kind = /^\d+$/.test(ref) ? 'id' : ref.includes('@') ? 'email' : 'username';
    attempts.push(() => findBy(deps, kind, ref));
    if (kind !== 'username') attempts.push(() => findBy(deps, 'username', ref));
  }
  for (const attempt of attempts) {
    const user = await attempt();
    if (user) return user;
  }
  throw CliError.of('not_found', `no user matches "${ref}"`, 'user');
}

function findBy(deps: AdminDeps, kind: 'id' | 'email' | 'username', value: string): Promise<User | null> {
  if (kind === 'id') return /^\d{1,15}$/.test(value) ? userById(deps, Number(value)) : Promise.resolve(null);
  return kind === 'email' ? userByEmail(deps, value) : userByUsername(deps, value);
}
