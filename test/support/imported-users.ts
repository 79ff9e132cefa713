import { pbkdf2Sync, randomBytes } from 'node:crypto';
import type { TestServer } from './server.js';

// Accounts as an import from django-allauth writes them: a verified address
// and the password hash Django made.

/** Django's PBKDF2PasswordHasher format, with a small iteration count for speed (the count travels in the string). */
export function djangoPbkdf2(password: string): string {
  const salt = randomBytes(11).toString('hex');
  const iterations = 2000;
  return `pbkdf2_sha256$${iterations}$${salt}$${pbkdf2Sync(password, salt, iterations, 32, 'sha256').toString('base64')}`;
}

/** Writes the user and its verified primary address straight to the database; resolves with the user id. */
export async function importUser(server: TestServer, email: string, passwordHash: string): Promise<number> {
  const db = server.app.deps.db;
  const now = Date.now();
  const user = await db
    .insertInto('users')
    .values({ username: null, username_lower: null, password_hash: passwordHash, created_at: now, password_changed_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('email_addresses')
    .values({ user_id: user.id, email, email_lower: email.toLowerCase(), verified: 1, is_primary: 1, created_at: now })
    .execute();
  return user.id;
}
