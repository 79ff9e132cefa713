import { randomKey, hashSecret, constantTimeEqual } from '../security/secrets.js';
import { verifyPassword } from '../security/passwords.js';

// Client secrets are shown once and stored as a hash. Ours are 256 random
// bits, for which one SHA-256 is as strong as any slow hash; the reference's
// (imported) are Django password hashes, verified as such.

const PREFIX = 'sha256$';

export function newClientSecret(): { secret: string; hash: string } {
  const secret = randomKey(32);
  return { secret, hash: clientSecretHash(secret) };
}

export function clientSecretHash(secret: string): string {
  return PREFIX + hashSecret(secret);
}

export async function clientSecretMatches(presented: string, stored: string | null): Promise<boolean> {
  if (!stored || !presented) return false;
  if (stored.startsWith(PREFIX)) return constantTimeEqual(clientSecretHash(presented), stored);
  return (await verifyPassword(presented, stored)).ok;
}
