import { fullName } from '../../domain/user.js';
import type { CliContext } from '../context.js';
import type { UserOverview } from '../../store/users.js';
import type { EmailAddress } from '../../store/email-addresses.js';
import type { SocialAccount } from '../../store/social-accounts.js';
import { importOriginOf, userOverview } from '../../flows/admin/users.js';
import { addressesOf } from '../../flows/admin/email-addresses.js';
import { liveSessionsOf } from '../../flows/admin/sessions.js';
import { authenticatorsOf } from '../../flows/admin/authenticators.js';
import { socialAccountsOf } from '../../flows/admin/social-accounts.js';
import { authenticatorJson, type AuthenticatorView } from '../authenticators/manage.js';
import { isCurrentPasswordHash, passwordScheme } from '../../security/passwords.js';
import { formatTime, isoTime, table } from '../output.js';
import { CliError } from '../errors.js';

// How users look in the CLI's output: JSON for scripts, text for people.
// Password hashes are described (which hasher, whether current), never shown.

export interface UserDetails {
  user: UserOverview;
  addresses: EmailAddress[];
  liveSessions: number;
  importedFrom: { source: string; sourceId: string; importedAt: number } | null;
  authenticators: AuthenticatorView[];
  socialAccounts: SocialAccount[];
}

export async function loadUserDetails(ctx: CliContext, userId: number): Promise<UserDetails> {
  const user = await userOverview(ctx, userId);
  if (!user) throw CliError.of('not_found', `no user ${userId}`, 'user');
  return {
    user,
    addresses: await addressesOf(ctx, userId),
    liveSessions: (await liveSessionsOf(ctx, userId, ctx.now())).length,
    importedFrom: await importOriginOf(ctx, userId),
    authenticators: await authenticatorsOf(ctx, userId),
    socialAccounts: await socialAccountsOf(ctx, userId),
  };
}

/** "argon2id", or for an imported hash e.g. "pbkdf2_sha256 (re-hashed at next login)". */
function describePassword(hash: string | null): { scheme: string; current: boolean; text: string } {
  const scheme = passwordScheme(hash);
  const current = isCurrentPasswordHash(hash);
  const usable = scheme !== 'none' && scheme !== 'unusable' && scheme !== 'unknown';
  const text = current || !usable ? (scheme === 'unknown' ? 'unknown format (cannot log in with it)' : scheme) : `${scheme} (re-hashed at next login)`;
  return { scheme, current, text };
}

export function userJson(user: UserOverview) {
  const { scheme, current } = describePassword(user.passwordHash);
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    email_verified: user.email === null ? null : user.emailVerified,
    is_active: user.isActive,
    is_admin: user.isAdmin,
    password: { scheme, current },
    created_at: isoTime(user.createdAt),
    last_login_at: isoTime(user.lastLoginAt),
    first_name: user.firstName,
    last_name: user.lastName,
    profile: user.profile,
  };
}

export function detailsJson(details: UserDetails) {
  return {
    ...userJson(details.user),
    email_addresses: details.addresses.map((a) => ({ email: a.email, verified: a.verified, primary: a.primary })),
    live_sessions: details.liveSessions,
    imported_from: details.importedFrom && {
      source: details.importedFrom.source,
      source_id: details.importedFrom.sourceId,
      imported_at: isoTime(details.importedFrom.importedAt),
    },
    authenticators: details.authenticators.map(authenticatorJson),
    social_accounts: details.socialAccounts.map((a) => ({ provider: a.provider, uid: a.uid })),
  };
}

export function detailsText(details: UserDetails): string {
  const { user } = details;
  const lines = [
    `user ${user.id}`,
    `  username:       ${user.username ?? '-'}`,
    `  name:           ${fullName(user) || '-'}`,
    `  active:         ${user.isActive ? 'yes' : 'no (disabled)'}`,
    `  admin:          ${user.isAdmin ? 'yes' : 'no'}`,
    `  password:       ${describePassword(user.passwordHash).text}`,
    `  joined:         ${formatTime(user.createdAt)}`,
    `  last login:     ${formatTime(user.lastLoginAt)}`,
    `  live sessions:  ${details.liveSessions}`,
  ];
  if (details.importedFrom) {
    lines.push(`  imported from:  ${details.importedFrom.source} user ${details.importedFrom.sourceId} at ${formatTime(details.importedFrom.importedAt)}`);
  }
  for (const [field, value] of Object.entries(user.profile)) lines.push(`  ${`${field}:`.padEnd(16)}${String(value)}`);
  lines.push(`  email addresses:${details.addresses.length === 0 ? ' none' : ''}`);
  for (const a of details.addresses) lines.push(`    ${a.email}${a.primary ? '  primary' : ''}${a.verified ? '  verified' : '  unverified'}`);
  lines.push(`  authenticators: ${details.authenticators.map((a) => `${a.type} ${a.id}`).join(', ') || 'none'}`);
  lines.push(`  social accounts:${details.socialAccounts.length === 0 ? ' none' : ''}`);
  for (const a of details.socialAccounts) lines.push(`    ${a.provider}  ${a.uid}`);
  return lines.join('\n');
}

export function usersText(users: UserOverview[]): string {
  if (users.length === 0) return 'no users';
  return table(
    ['ID', 'USERNAME', 'EMAIL', 'VERIFIED', 'ACTIVE', 'JOINED', 'LAST LOGIN'],
    users.map((u) => [
      String(u.id),
      u.username ?? '-',
      u.email ?? '-',
      u.email === null ? '-' : u.emailVerified ? 'yes' : 'no',
      u.isActive ? 'yes' : 'no',
      formatTime(u.createdAt),
      formatTime(u.lastLoginAt),
    ]),
  );
}
