import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A URL-safe random secret with `bytes` bytes of entropy. */
export function randomKey(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** How secrets are stored: the SHA-256 hex digest, so a database leak reveals no usable key. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function hmac(key: string, message: string): string {
  return createHmac('sha256', key).update(message, 'utf8').digest('base64url');
}

/** Constant-time string comparison; unequal lengths fail without leaking where. */
export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

// No 0/O, 1/I/L, 5/S, 2/Z, 8/B: codes are read off a phone and typed by hand.
const CODE_ALPHABET = 'ACDEFGHJKMNPQRTUVWXY34679';

/** A short one-time code (about 28 bits for 6 characters), uniformly drawn. */
export function randomCode(length = 6): string {
  let code = '';
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Codes are compared case-insensitively and ignoring spaces and dashes people type. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}
