import type { Db } from './db.js';
import { deleteExpiredSessions } from './sessions.js';
import { deleteExpiredKeys } from './one-time-keys.js';
import { deleteExpiredStates } from './social-states.js';
import { deleteExpiredTokenUses } from './social-token-uses.js';
import { deleteExpiredAcsPosts } from './saml-acs-posts.js';
import { deleteExpiredSamlLogouts } from './saml-logouts.js';
import { deleteAuditEventsBefore } from './audit-events.js';
import { deleteFinishedDeliveriesBefore } from './webhook-deliveries.js';
import { deleteExpiredPayloads } from './idp-payloads.js';
import { deleteSpentInitialAccessTokens } from './idp-registration.js';

// Expired sessions, one-time keys, redirect states and redeemed ID token ids are dead weight: lookups already ignore
// them, so deleting them is housekeeping, done in the background at an
// interval. Several instances may sweep at once; the deletes are idempotent.
// Audit events and finished webhook deliveries past AUDIT_RETENTION_DAYS go
// too, in batches, so that no single statement holds the (SQLite) writer long.

const BATCH = 1000;
/** Batches per round: a large backlog (retention just shortened) is worked off over several rounds. */
const MAX_BATCHES = 100;

export interface Sweeper {
  /** One round now (the timer runs them every interval). */
  sweep(): Promise<void>;
  stop(): void;
}

async function inBatches(remove: () => Promise<number>): Promise<void> {
  for (let i = 0; i < MAX_BATCHES && (await remove()) === BATCH; i++);
}

export function startSweeper(db: Db, now: () => number, log: (error: unknown) => void, opts: { auditRetentionDays: number; intervalMs?: number }): Sweeper {
  const sweep = async () => {
    try {
      await deleteExpiredSessions(db, now());
      await deleteExpiredKeys(db, now());
      await deleteExpiredStates(db, now());
      await deleteExpiredTokenUses(db, now());
      await deleteExpiredAcsPosts(db, now());
      await deleteExpiredSamlLogouts(db, now());
      await deleteExpiredPayloads(db, now());
      await deleteSpentInitialAccessTokens(db, now());
      if (opts.auditRetentionDays > 0) {
        const cutoff = now() - opts.auditRetentionDays * 86400_000;
        await inBatches(() => deleteAuditEventsBefore(db, cutoff, BATCH));
        await inBatches(() => deleteFinishedDeliveriesBefore(db, cutoff, BATCH));
      }
    } catch (error) {
      log(error);
    }
  };
  const timer = setInterval(() => void sweep(), opts.intervalMs ?? 10 * 60_000);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
