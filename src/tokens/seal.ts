import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// The reuse grace window hands a retrying client the very successor it lost.
// Only hashes of tokens are stored, so the successor is kept encrypted under
// a key derived from the token it replaced: whoever can present that token
// may read it, and a database leak alone reveals nothing.

function keyFor(parentToken: string): Buffer {
  // Domain-separated from the stored token hash (plain SHA-256 of the token).
  return createHash('sha256').update('refresh-successor\0').update(parentToken, 'utf8').digest();
}

export function sealSuccessor(successor: string, parentToken: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(parentToken), iv);
  const body = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function unsealSuccessor(sealed: string, parentToken: string): string | null {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(parentToken), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
