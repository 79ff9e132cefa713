import { createHmac, randomBytes } from 'node:crypto';

// Recovery codes as django-allauth derives them, so that codes imported from
// it keep working: only a random seed is stored; code i comes from
// HMAC-SHA1, keyed with the seed's text, over "  0,  1, ...  i," (each index
// right-aligned to three places, then a comma): the first digits/2 bytes of
// the digest, big-endian, modulo 10^digits, zero-padded.

/** A new seed: 40 random bytes as hex, as the reference makes them. */
export function newRecoverySeed(): string {
  return randomBytes(40).toString('hex');
}

export function deriveRecoveryCodes(seed: string, count: number, digits: number): string[] {
  const bytes = Math.min(Math.floor(digits / 2), 20);
  const modulus = 10n ** BigInt(digits);
  const codes: string[] = [];
  let message = '';
  for (let i = 0; i < count; i++) {
    message += `${String(i).padStart(3, ' ')},`;
    const digest = createHmac('sha1', Buffer.from(seed, 'ascii')).update(message, 'ascii').digest();
    const value = BigInt(`0x${digest.subarray(0, bytes).toString('hex')}`) % modulus;
    codes.push(value.toString().padStart(digits, '0'));
  }
  return codes;
}

export function isUsed(usedMask: number, index: number): boolean {
  return Math.floor(usedMask / 2 ** index) % 2 === 1;
}
