import type { Conn } from '../../../store/db.js';
import { findImportRecords } from '../../../store/import-records.js';
import { findUsersByIds } from '../../../store/users.js';
import type { ImportRun } from './step.js';

/**
 * The users here that the given source users became, by source id: absent
 * when a source user was not imported (a conflict) or was deleted here since.
 */
export async function importedUserIds(conn: Conn, run: ImportRun, sourceUserIds: number[]): Promise<Map<number, number>> {
  const records = await findImportRecords(conn, run.sourceName, 'user', [...new Set(sourceUserIds)].map(String));
  const locals = await findUsersByIds(conn, [...records.values()].map((r) => r.targetId));
  const found = new Map<number, number>();
  for (const record of records.values()) if (locals.has(record.targetId)) found.set(Number(record.sourceId), record.targetId);
  return found;
}
