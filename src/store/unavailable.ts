import SQLite from 'better-sqlite3';
import { DependencyUnavailable } from '../kernel/unavailable.js';

// SQLite's "try again later" states: another process held the write lock
// past busy_timeout, or the disk is full or failing.
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR)/;

/** The error as a dependency failure, or null when it is something else (a bug, a constraint). */
export function asUnavailable(error: unknown): DependencyUnavailable | null {
  if (error instanceof DependencyUnavailable) return error;
  if (error instanceof SQLite.SqliteError && SQLITE_UNAVAILABLE.test(error.code)) return new DependencyUnavailable('database', error.code, { cause: error });
  return null;
}
