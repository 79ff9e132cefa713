import type { ProviderRoute } from './providers.js';
import type { ProviderAppsReport } from './provider-apps.js';

// What an import did: per kind of row how many were imported, found
// imported before, or skipped and why; the conflicts that kept users out;
// where social accounts went; and what the source holds that is not
// imported. The CLI prints it.

/** The kinds of row counted, in the order the summary lists them. */
export const ROW_KINDS = ['users', 'email_addresses', 'sessions', 'social_accounts', 'social_tokens', 'mfa_authenticators', 'idp_clients', 'idp_grants'] as const;

export type RowKind = (typeof ROW_KINDS)[number];

export type SkipReason =
  | 'deleted_here'
  | 'user_not_imported'
  | 'verified_by_another_user'
  | 'taken_here'
  | 'duplicate'
  | 'no_secret_key'
  | 'bad_signature'
  | 'unreadable'
  | 'not_logged_in'
  | 'user_inactive'
  | 'auth_hash_mismatch'
  | 'password_changed_here'
  | 'unknown_provider'
  | 'unsupported_provider'
  | 'connected_here'
  | 'account_not_imported'
  | 'tokens_not_stored'
  | 'token_here'
  | 'type_present_here'
  | 'key_registered_here'
  | 'encrypted_secret'
  | 'migrated_codes'
  | 'unknown_type'
  | 'client_here'
  | 'client_not_imported';

export interface Conflict {
  sourceUserId: number;
  username: string | null;
  reason: 'username_taken' | 'email_taken';
  /** The username or address that is taken. */
  value: string;
  /** Who has it here. */
  localUserId: number | null;
}

/** Source rows of a kind this version does not import. */
export interface NotImported {
  table: string;
  rows: number;
  /** Rows by type or provider, where the table has one. */
  byType?: Record<string, number>;
  /** They have no counterpart here. */
  reason: 'not_carried_over';
  what: string;
}

/** Counts one more `key`. */
export function tally(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

export interface RowCounts {
  imported: number;
  alreadyImported: number;
  skipped: Partial<Record<SkipReason, number>>;
}

export class ImportSummary {
  readonly rows = Object.fromEntries(ROW_KINDS.map((kind) => [kind, { imported: 0, alreadyImported: 0, skipped: {} }])) as Record<RowKind, RowCounts>;
  readonly conflicts: Conflict[] = [];
  /** Imported users by the hasher of their password (passwordScheme). */
  readonly passwordHashes: Record<string, number> = {};
  /** Imported users whose hash no check here understands, by its algorithm name: they must reset their password. */
  readonly unverifiableHashes: Record<string, number> = {};
  /** Imported users given the admin role, being is_staff or is_superuser in the source. */
  admins = 0;
  notImported: NotImported[] = [];
  /** Where the social accounts of each provider went. */
  providers: ProviderRoute[] = [];
  /** The source's provider apps and the settings they need here. */
  providerApps: ProviderAppsReport = { apps: [], settings: null };

  imported(kind: RowKind, n = 1): void {
    this.rows[kind].imported += n;
  }

  alreadyImported(kind: RowKind, n = 1): void {
    this.rows[kind].alreadyImported += n;
  }

  skipped(kind: RowKind, reason: SkipReason, n = 1): void {
    if (n > 0) this.rows[kind].skipped[reason] = (this.rows[kind].skipped[reason] ?? 0) + n;
  }
}
