import { createHash, createHmac, randomFillSync, randomInt, timingSafeEqual } from 'node:crypto';

// Each call into the CSPRNG costs microseconds whatever the size (tens of them
// on a login beside busy hashing threads), so keys are cut from a pool refilled
// 4 KiB at a time, as Node does for randomUUID. Bytes are zeroed once handed
// out, so the pool never holds a key already issued.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** A URL-safe random secret with `bytes` bytes of entropy. */
export function randomKey(bytes = 32): string {
  if (bytes > POOL_BYTES) return randomFillSync(Buffer.alloc(bytes)).toString('base64url');
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const end = poolOffset + bytes;
  const key = pool.toString('base64url', poolOffset, end);
  pool.fill(0, poolOffset, end);
  poolOffset = end;
  return key;
}

/** How secrets are stored: the SHA-256 hex digest, so a database leak reveals no usable key. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * How session keys are stored: the SHA-256 digest as 32 raw bytes. Looked up
 * on every request, so the compact form keeps the index small and compared
 * byte by byte.
 */
export function sessionKeyDigest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
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
