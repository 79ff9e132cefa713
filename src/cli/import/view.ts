import { table } from '../output.js';
import type { ImportSummary, RowCounts, RowKind, SkipReason } from '../../flows/admin/import-allauth/summary.js';

// How an allauth import's summary prints: JSON for scripts, text for people.

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

export function summaryJson(summary: ImportSummary, source: string) {
  const rows = Object.fromEntries(
    Object.entries(summary.rows).map(([kind, c]) => [kind, { imported: c.imported, already_imported: c.alreadyImported, skipped: c.skipped }]),
  );
  return {
    source,
    rows,
    conflicts: summary.conflicts.map((c) => ({
      source_user_id: c.sourceUserId,
      username: c.username,
      reason: c.reason,
      value: c.value,
      local_user_id: c.localUserId,
    })),
    password_hashes: summary.passwordHashes,
    unverifiable_password_hashes: summary.unverifiableHashes,
    admins: summary.admins,
    not_imported: summary.notImported.map((n) => ({ table: n.table, rows: n.rows, ...(n.byType ? { by_type: n.byType } : {}), reason: n.reason, what: n.what })),
    social_providers: summary.providers.map((p) => ({
      source: p.source,
      accounts: p.accounts,
      provider_id: p.target,
      type: p.type,
      configured_here: p.configuredHere,
      mapped: p.mapped,
      ...(p.skip ? { skipped: p.skip } : {}),
    })),
    provider_apps: summary.providerApps.apps.map((a) => ({
      type: a.type,
      provider_id: a.id,
      name: a.name,
      client_id: a.clientId,
      configured_here: a.configuredHere,
      supported: a.supported,
    })),
    provider_settings: summary.providerApps.settings,
  };
}

/** Where each provider's accounts went; the source's apps and what to configure for them. */
function providersText(summary: ImportSummary): string[] {
  const out: string[] = [];
  if (summary.providers.length) out.push('', 'social accounts by provider:');
  for (const p of summary.providers) {
    const where = p.target === null ? `not imported (${REASONS[p.skip!]})` : `-> ${p.target}${p.type ? ` (${p.type})` : ''}${p.configuredHere ? '' : ', not configured here yet'}`;
    out.push(`  ${p.source}: ${p.accounts} account(s) ${where}`);
  }
  const { apps, settings } = summary.providerApps;
  if (apps.length) out.push('', "provider apps in the source's database (not imported: this server reads SOCIALACCOUNT_PROVIDERS):");
  for (const a of apps) {
    const state = !a.supported ? 'no such provider type here' : a.configuredHere ? 'configured here' : 'NOT configured here';
    out.push(`  ${a.type} "${a.name}" as ${a.id}, client_id ${a.clientId}: ${state}`);
  }
  if (settings) out.push('  add to SOCIALACCOUNT_PROVIDERS (secrets are left out unless --show-app-secrets):', `  ${JSON.stringify(settings)}`);
  return out;
}

export function summaryText(summary: ImportSummary, source: string): string {
  const out: string[] = [`allauth import from ${source}`, ''];
  const skippedTotal = (c: RowCounts) => Object.values(c.skipped).reduce((a, b) => a + (b ?? 0), 0);
  out.push(
    table(
      ['', 'IMPORTED', 'ALREADY IMPORTED', 'SKIPPED'],
      (Object.keys(summary.rows) as RowKind[]).map((kind) => {
        const c = summary.rows[kind];
        return [KIND_LABELS[kind], String(c.imported), String(c.alreadyImported), String(skippedTotal(c))];
      }),
    ),
  );
  const skipped = (Object.keys(summary.rows) as RowKind[]).flatMap((kind) =>
    Object.entries(summary.rows[kind].skipped).map(([reason, n]) => `  ${KIND_LABELS[kind]}: ${n} ${REASONS[reason as SkipReason]}`),
  );
  if (skipped.length) out.push('', 'skipped:', ...skipped);
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  if (Object.keys(summary.passwordHashes).length) out.push('', `password hashes: ${list(summary.passwordHashes)} (each is re-hashed to argon2id at its user's next login)`);
  if (Object.keys(summary.unverifiableHashes).length) {
    out.push(`  in no format this server verifies: ${list(summary.unverifiableHashes)}; those users must reset their password`);
  }
  if (summary.admins > 0) out.push(`admin role: ${summary.admins} user(s), is_staff or is_superuser in the source (the admin console asks them for a second factor)`);
  out.push(...providersText(summary));
  if (summary.notImported.length) out.push('', 'not carried over (no counterpart here):');
  for (const n of summary.notImported) out.push(`  ${n.table}: ${n.rows} row(s)${n.byType ? ` (${list(n.byType)})` : ''}, ${n.what}`);
  if (summary.conflicts.length) {
    out.push('', `conflicts: ${summary.conflicts.length} user(s) not imported; resolve each and run the import again:`);
    for (const c of summary.conflicts) {
      const taken = c.reason === 'username_taken' ? `username ${c.value}` : `address ${c.value}`;
      out.push(`  source user ${c.sourceUserId}${c.username ? ` (${c.username})` : ''}: ${taken} belongs to user ${c.localUserId ?? '?'} here`);
    }
  }
  return out.join('\n');
}
