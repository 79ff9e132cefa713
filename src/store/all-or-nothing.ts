import type { Conn, Db, Tx } from './db.js';

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

/**
 * Runs `work` in the caller's transaction when `conn` is one, else in a new
 * one: for writes that must commit with whatever the caller already does.
 */
export function inTransaction<T>(conn: Conn, work: (tx: Conn) => Promise<T>): Promise<T> {
  return conn.isTransaction ? work(conn) : conn.transaction().execute(work);
}
