import type { Db, Tx } from './db.js';

/**
 * Runs `work` in a transaction that commits when it returns a value and
 * rolls back when it returns null (or throws): for steps that must happen
 * together or not at all, where "not at all" is an expected outcome (a code
 * spent, but the login it was for completed meanwhile by another request).
 */
export async function allOrNothing<T>(db: Db, work: (tx: Tx) => Promise<T | null>): Promise<T | null> {
  const tx = await db.startTransaction().execute();
  try {
    const value = await work(tx);
    await (value === null ? tx.rollback() : tx.commit()).execute();
    return value;
  } catch (error) {
    await tx.rollback().execute();
    throw error;
  }
}
