import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

// Secrets the server must read back (TOTP secrets, recovery-code seeds,
// stored provider tokens) are kept encrypted, so a database dump alone
// reveals none of them. AES-256-GCM under a key derived from SECRET_KEY;
// the associated data names the record a ciphertext belongs to, so one
// cannot be moved onto another row or user.
//
// Sealed text is `v1.<key id>.<base64url(iv | tag | ciphertext)>`. The key
// id says which secret of the ring sealed it: the first secret seals, every
// secret opens, so SECRET_KEY can be rotated with the old one kept as a
// fallback until data sealed under it has been rewritten.

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface AtRestCipher {
  /** Encrypts `plain` for the record named by `context` (e.g. `totp:42`). */
  seal(plain: string, context: string): string;
  /** The plain text, or null when it was sealed for another context, under an unknown key, or tampered with. */
  open(sealed: string, context: string): string | null;
  /** Whether `sealed` was made under an older key of the ring (worth re-sealing). */
  isStale(sealed: string): boolean;
}

interface RingKey {
  id: string;
  key: Buffer;
}

function deriveKey(secret: string): RingKey {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'headless-auth', 'data at rest v1', 32));
  // Identifies the key without revealing anything usable about it.
  const id = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return { id, key };
}

/** `secrets[0]` seals; every secret in the list opens. */
export function atRestCipher(secrets: readonly string[]): AtRestCipher {
  if (secrets.length === 0) throw new Error('atRestCipher needs at least one secret');
  const ring = secrets.map(deriveKey);
  const current = ring[0]!;
  const byId = new Map(ring.map((k) => [k.id, k]));
  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${current.id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, id, payload, extra] = sealed.split('.');
      if (version !== VERSION || extra !== undefined || !id || !payload) return null;
      const entry = byId.get(id);
      if (!entry) return null;
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', entry.key, bytes.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
    isStale(sealed) {
      return sealed.split('.')[1] !== current.id;
    },
  };
}
