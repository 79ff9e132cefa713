// Access tokens already verified, by their exact text, so that a client
// sending the same token on every request pays for the signature check and
// the sid decryption once. Only genuine tokens get in, and expiry is checked
// against the clock on every hit. Bounded: the oldest entry goes first.
// Entries are filed under the token's last characters (signature bytes)
// because hashing a whole token for the lookup costs more than the rest of
// the hit; the full text is then compared, so a collision is only a miss.

import type { LiveSession } from './strategy.js';

export interface VerifiedAccess {
  sub: string;
  /** Unix seconds. */
  exp: number;
  sessionKey: string;
  /** Stateless mode only: the session as last read, reused until `until` (ms) while this process wrote nothing. */
  snapshot?: { live: LiveSession; until: number; writeVersion: number };
}

const KEY_LENGTH = 32;
const keyOf = (token: string) => token.slice(-KEY_LENGTH);

export class VerifiedTokenCache {
  private readonly entries = new Map<string, { token: string; access: VerifiedAccess }>();

  constructor(private readonly capacity = 4096) {}

  get(token: string, nowMs: number): VerifiedAccess | undefined {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (!entry || entry.token !== token) return undefined;
    if (entry.access.exp * 1000 <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.access;
  }

  set(token: string, access: VerifiedAccess): void {
    const key = keyOf(token);
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { token, access });
  }
}
