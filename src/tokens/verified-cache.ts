// Access tokens already verified, by their exact text, so that a client
// sending the same token on every request pays for the signature check and
// the sid decryption once. Only genuine tokens get in, and expiry is checked
// against the clock on every hit. Bounded: the oldest entry goes first.

import type { LiveSession } from './strategy.js';

export interface VerifiedAccess {
  sub: string;
  /** Unix seconds. */
  exp: number;
  sessionKey: string;
  /** Stateless mode only: the session as last read, reused until `until` (ms) while this process wrote nothing. */
  snapshot?: { live: LiveSession; until: number; writeVersion: number };
}

export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedAccess>();

  constructor(private readonly capacity = 4096) {}

  get(token: string, nowMs: number): VerifiedAccess | undefined {
    const entry = this.entries.get(token);
    if (entry && entry.exp * 1000 <= nowMs) {
      this.entries.delete(token);
      return undefined;
    }
    return entry;
  }

  set(token: string, entry: VerifiedAccess): void {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, entry);
  }
}
