import { table } from '../../output.js';
import type { ProviderRoute } from './providers.js';
import type { ProviderAppsReport } from './provider-apps.js';

// What an import did, for people and for scripts: per kind of row how many
// were imported, found imported before, or skipped and why; the conflicts
// that kept users out; where social accounts went; and what the source
// holds that is not imported.

export type RowKind = 'users' | 'email_addresses' | 'sessions' | 'social_accounts' | 'social_tokens' | 'mfa_authenticators' | 'idp_clients' | 'idp_grants';

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

const REASONS: Record<SkipReason, string> = {
  deleted_here: 'imported before and deleted here since',
  user_not_imported: 'its user was not imported (a conflict, or deleted here)',
  verified_by_another_user: 'unverified, and another source user has it verified',
  taken_here: 'another account here has the address',
  duplicate: 'the same address twice for one user (differing in case)',
  no_secret_key: 'live, but no --django-secret-key-file to check its signature with',
  bad_signature: 'not signed by the given Django SECRET_KEY',
  unreadable: 'its data could not be decoded',
  not_logged_in: 'no user logged in (an anonymous or pending-login session)',
  user_inactive: 'its user is inactive, so Django does not accept it',
  auth_hash_mismatch: "bound to an earlier password (Django's session auth hash does not match)",
  password_changed_here: 'the password was changed here since the user was imported',
  unknown_provider: 'its provider is no app of the source database, no provider type here and not configured here: name its id here with --provider-map',
  unsupported_provider: 'its provider type has no implementation here',
  connected_here: 'the provider account is connected to an account here already',
  account_not_imported: 'its social account was not imported',
  tokens_not_stored: 'SOCIALACCOUNT_STORE_TOKENS is off here',
  token_here: 'the account has a token here already (one is kept per account)',
  type_present_here: 'the user has one of this type here already',
  key_registered_here: 'the security key is registered here already',
  encrypted_secret: "its secret is not in the clear (the deployment's MFA adapter encrypts it): decrypt the column before importing",
  migrated_codes: "recovery codes in django-allauth-2fa's migrated form (a list of codes), which this server cannot hold: the user generates new ones",
  unknown_type: 'an authenticator type this server does not know',
  client_here: 'a client with this id is registered here already (kept as it is)',
  client_not_imported: 'its OpenID client is not registered here',
};

const KIND_LABELS: Record<RowKind, string> = {
  users: 'users',
  email_addresses: 'email addresses',
  sessions: 'sessions',
  social_accounts: 'social accounts',
  social_tokens: 'social tokens',
  mfa_authenticators: 'MFA authenticators',
  idp_clients: 'OpenID clients',
  idp_grants: 'OpenID grants (refresh tokens)',
};

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

interface Counts {
  imported: number;
  alreadyImported: number;
  skipped: Partial<Record<SkipReason, number>>;
}

export class ImportSummary {
  readonly rows = Object.fromEntries(Object.keys(KIND_LABELS).map((kind) => [kind, { imported: 0, alreadyImported: 0, skipped: {} }])) as Record<RowKind, Counts>;
  readonly conflicts: Conflict[] = [];
  /** Imported users by the hasher of their password (passwordScheme). */
  readonly passwordHashes: Record<string, number> = {};
  /** Imported users whose hash no check here understands, by its algorithm name: they must reset their password. */
  readonly unverifiableHashes: Record<string, number> = {};
  /** Imported users with values in fields that have no place here. */
  readonly fieldsNotImported: Record<string, number> = {};
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

  toJson(source: string) {
    const rows = Object.fromEntries(
      Object.entries(this.rows).map(([kind, c]) => [kind, { imported: c.imported, already_imported: c.alreadyImported, skipped: c.skipped }]),
    );
    return {
      source,
      rows,
      conflicts: this.conflicts.map((c) => ({
        source_user_id: c.sourceUserId,
        username: c.username,
        reason: c.reason,
        value: c.value,
        local_user_id: c.localUserId,
      })),
      password_hashes: this.passwordHashes,
      unverifiable_password_hashes: this.unverifiableHashes,
      fields_not_imported: this.fieldsNotImported,
      admins: this.admins,
      not_imported: this.notImported.map((n) => ({ table: n.table, rows: n.rows, ...(n.byType ? { by_type: n.byType } : {}), reason: n.reason, what: n.what })),
      social_providers: this.providers.map((p) => ({
        source: p.source,
        accounts: p.accounts,
        provider_id: p.target,
        type: p.type,
        configured_here: p.configuredHere,
        mapped: p.mapped,
        ...(p.skip ? { skipped: p.skip } : {}),
      })),
      provider_apps: this.providerApps.apps.map((a) => ({
        type: a.type,
        provider_id: a.id,
        name: a.name,
        client_id: a.clientId,
        configured_here: a.configuredHere,
        supported: a.supported,
      })),
      provider_settings: this.providerApps.settings,
    };
  }

  /** Where each provider's accounts went; the source's apps and what to configure for them. */
  private providersText(): string[] {
    const out: string[] = [];
    if (this.providers.length) out.push('', 'social accounts by provider:');
    for (const p of this.providers) {
      const where = p.target === null ? `not imported (${REASONS[p.skip!]})` : `-> ${p.target}${p.type ? ` (${p.type})` : ''}${p.configuredHere ? '' : ', not configured here yet'}`;
      out.push(`  ${p.source}: ${p.accounts} account(s) ${where}`);
    }
    const { apps, settings } = this.providerApps;
    if (apps.length) out.push('', "provider apps in the source's database (not imported: this server reads SOCIALACCOUNT_PROVIDERS):");
    for (const a of apps) {
      const state = !a.supported ? 'no such provider type here' : a.configuredHere ? 'configured here' : 'NOT configured here';
      out.push(`  ${a.type} "${a.name}" as ${a.id}, client_id ${a.clientId}: ${state}`);
    }
    if (settings) out.push('  add to SOCIALACCOUNT_PROVIDERS (secrets are left out unless --show-app-secrets):', `  ${JSON.stringify(settings)}`);
    return out;
  }

  toText(source: string): string {
    const out: string[] = [`allauth import from ${source}`, ''];
    const skippedTotal = (c: Counts) => Object.values(c.skipped).reduce((a, b) => a + (b ?? 0), 0);
    out.push(
      table(
        ['', 'IMPORTED', 'ALREADY IMPORTED', 'SKIPPED'],
        (Object.keys(this.rows) as RowKind[]).map((kind) => {
          const c = this.rows[kind];
          return [KIND_LABELS[kind], String(c.imported), String(c.alreadyImported), String(skippedTotal(c))];
        }),
      ),
    );
    const skipped = (Object.keys(this.rows) as RowKind[]).flatMap((kind) =>
      Object.entries(this.rows[kind].skipped).map(([reason, n]) => `  ${KIND_LABELS[kind]}: ${n} ${REASONS[reason as SkipReason]}`),
    );
    if (skipped.length) out.push('', 'skipped:', ...skipped);
    const list = (counts: Record<string, number>) =>
      Object.entries(counts)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
    if (Object.keys(this.passwordHashes).length) out.push('', `password hashes: ${list(this.passwordHashes)} (each is re-hashed to argon2id at its user's next login)`);
    if (Object.keys(this.unverifiableHashes).length) {
      out.push(`  in no format this server verifies: ${list(this.unverifiableHashes)}; those users must reset their password`);
    }
    if (Object.keys(this.fieldsNotImported).length) out.push(`fields with no place here, not imported: ${list(this.fieldsNotImported)} (users having them)`);
    if (this.admins > 0) out.push(`admin role: ${this.admins} user(s), is_staff or is_superuser in the source (the admin console asks them for a second factor)`);
    out.push(...this.providersText());
    if (this.notImported.length) out.push('', 'not carried over (no counterpart here):');
    for (const n of this.notImported) out.push(`  ${n.table}: ${n.rows} row(s)${n.byType ? ` (${list(n.byType)})` : ''}, ${n.what}`);
    if (this.conflicts.length) {
      out.push('', `conflicts: ${this.conflicts.length} user(s) not imported; resolve each and run the import again:`);
      for (const c of this.conflicts) {
        const taken = c.reason === 'username_taken' ? `username ${c.value}` : `address ${c.value}`;
        out.push(`  source user ${c.sourceUserId}${c.username ? ` (${c.username})` : ''}: ${taken} belongs to user ${c.localUserId ?? '?'} here`);
      }
    }
    return out.join('\n');
  }
}
