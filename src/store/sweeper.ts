import type { Db } from './db.js';
import { deleteExpiredSessions } from './sessions.js';
import { deleteExpiredKeys } from './one-time-keys.js';
import { deleteExpiredStates } from './social-states.js';
import { deleteExpiredTokenUses } from './social-token-uses.js';

// Expired sessions, one-time keys, redirect states and redeemed ID token ids are dead weight: lookups already ignore
// them, so deleting them is housekeeping, done in the background at an
// interval. Several instances may sweep at once; the deletes are idempotent.

export function startSweeper(db: Db, now: () => number, log: (error: unknown) => void, intervalMs = 10 * 60_000): () => void {
  const sweep = async () => {
    try {
      await deleteExpiredSessions(db, now());
      await deleteExpiredKeys(db, now());
      await deleteExpiredStates(db, now());
      await deleteExpiredTokenUses(db, now());
    } catch (error) {
      log(error);
    }
  };
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
