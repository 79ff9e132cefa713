import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// The `sid` claim: the session key, encrypted so that a leaked access token
// cannot be replayed as an X-Session-Token. Byte for byte what the reference
// does: base64 (standard, padded) of a 16-byte IV followed by the AES-256-CTR
// ciphertext, keyed by SHA-256 of the secret key. No MAC: the JWT signature
// already protects the claim.

const IV_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface SidCodec {
  encrypt(sessionKey: string, iv?: Buffer): string;
  /** The session key, or null for anything that is not a well-formed sid. */
  decrypt(sid: string): string | null;
}

export function sidCodec(secretKey: string): SidCodec {
  const key = createHash('sha256').update(secretKey, 'utf8').digest();
  return {
    encrypt(sessionKey, iv = randomBytes(IV_BYTES)) {
      const cipher = createCipheriv('aes-256-ctr', key, iv);
      return Buffer.concat([iv, cipher.update(sessionKey, 'utf8'), cipher.final()]).toString('base64');
    },
    decrypt(sid) {
      if (sid.length % 4 !== 0 || !BASE64.test(sid)) return null;
      const bytes = Buffer.from(sid, 'base64');
      if (bytes.length <= IV_BYTES) return null;
      const decipher = createDecipheriv('aes-256-ctr', key, bytes.subarray(0, IV_BYTES));
      const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES)), decipher.final()]);
      const text = plain.toString('utf8');
      // Invalid UTF-8 cannot be a session key; the reference rejects it too.
      return Buffer.from(text, 'utf8').equals(plain) ? text : null;
    },
  };
}
