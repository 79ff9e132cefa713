import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// The `sid` claim: the session key, encrypted so that a leaked access token
// cannot be replayed as an X-Session-Token. Byte for byte what the reference
// does: base64 (standard, padded) of a 16-byte IV followed by the AES-256-CTR
// ciphertext, keyed by SHA-256 of the secret key. No MAC: the JWT signature
// already protects the claim.
//
// Key rotation: SECRET_KEY encrypts, and decryption tries it first, then
// each of SECRET_KEY_FALLBACKS. Without a MAC a wrong key is told apart by
// its output: a session key is printable ASCII, while a wrong key yields
// random bytes, all printable by chance about once in 1e18 for a 32-byte key.

const IV_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const SESSION_KEY = /^[\x21-\x7e]+$/;

export interface SidCodec {
  encrypt(sessionKey: string, iv?: Buffer): string;
  /** The session key, or null for anything that is not a well-formed sid. */
  decrypt(sid: string): string | null;
}

/** `secretKeys[0]` encrypts; each of them decrypts, in order. */
export function sidCodec(secretKeys: readonly string[]): SidCodec {
  if (secretKeys.length === 0) throw new Error('sidCodec needs at least one secret key');
  const keys = secretKeys.map((secret) => createHash('sha256').update(secret, 'utf8').digest());
  return {
    encrypt(sessionKey, iv = randomBytes(IV_BYTES)) {
      const cipher = createCipheriv('aes-256-ctr', keys[0]!, iv);
      return Buffer.concat([iv, cipher.update(sessionKey, 'utf8'), cipher.final()]).toString('base64');
    },
    decrypt(sid) {
      if (sid.length % 4 !== 0 || !BASE64.test(sid)) return null;
      const bytes = Buffer.from(sid, 'base64');
      if (bytes.length <= IV_BYTES) return null;
      for (const key of keys) {
        const decipher = createDecipheriv('aes-256-ctr', key, bytes.subarray(0, IV_BYTES));
        // Only ASCII passes, so the bytes are the text: no UTF-8 to check.
        const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES)), decipher.final()]).toString('latin1');
        if (SESSION_KEY.test(text)) return text;
      }
      return null;
    },
  };
}
