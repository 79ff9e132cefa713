import { countRows, countRowsBy } from '../../../store/allauth/row-counts.js';
import type { AllauthSource } from '../../../store/allauth/source.js';
import type { NotImported } from './summary.js';

// Source tables no step imports, for the summary (provider apps have a part
// of their own: provider-apps.ts).
const TABLES: Array<Omit<NotImported, 'rows' | 'byType'> & { byColumn?: string }> = [
  { table: 'account_emailconfirmation', reason: 'not_carried_over', what: 'pending confirmation keys (a new verification mail replaces them)' },
  { table: 'auth_user_groups', reason: 'not_carried_over', what: 'group memberships' },
  { table: 'auth_user_user_permissions', reason: 'not_carried_over', what: 'per-user permissions' },
];

export async function countNotImported(source: AllauthSource): Promise<NotImported[]> {
  const found: NotImported[] = [];
  for (const { byColumn, ...entry } of TABLES) {
    const rows = await countRows(source, entry.table);
    if (rows === 0) continue;
    const byType = byColumn ? Object.fromEntries([...(await countRowsBy(source, entry.table, byColumn))].sort(([a], [b]) => a.localeCompare(b))) : undefined;
    found.push({ ...entry, rows, ...(byType && Object.keys(byType).length ? { byType } : {}) });
  }
  return found;
}
