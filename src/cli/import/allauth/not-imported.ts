import { countRows, countRowsBy } from '../../../store/allauth/row-counts.js';
import type { AllauthSource } from '../../../store/allauth/source.js';
import type { NotImported } from './summary.js';

// Source tables no step imports, for the summary. When a step for one of the
// first group exists, its entry moves from here to the import's steps.
const TABLES: Array<Omit<NotImported, 'rows' | 'byType'> & { byColumn?: string }> = [
  { table: 'socialaccount_socialaccount', reason: 'not_imported_yet', what: 'social accounts connected to users', byColumn: 'provider' },
  { table: 'socialaccount_socialtoken', reason: 'not_imported_yet', what: "providers' access and refresh tokens" },
  { table: 'socialaccount_socialapp', reason: 'not_imported_yet', what: 'provider apps (client ids and secrets)', byColumn: 'provider' },
  { table: 'mfa_authenticator', reason: 'not_imported_yet', what: 'MFA authenticators', byColumn: 'type' },
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
