import type { User } from '../../domain/user.js';
import { deleteSocialAccount, listUserSocialAccounts, type SocialAccount } from '../../store/social-accounts.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import type { AdminDeps } from './webhooks.js';
import { findApp } from '../../social/apps.js';
import { providerType } from '../../social/providers/index.js';

// A user's connected provider accounts, as an administrator sees and
// removes them (a compromised provider account, a wrong link).

/**
 * What people call the provider an account is stored under: its configured
 * app's name (SOCIALACCOUNT_PROVIDERS, else its type's), else the name of the
 * provider type of that id (an app since removed); null for neither.
 */
export function providerName(deps: AdminDeps, id: string): string | null {
  return findApp(deps.config.social.apps, id)?.name || providerType(id)?.name || null;
}

export function socialAccountsOf(deps: AdminDeps, userId: number): Promise<SocialAccount[]> {
  return listUserSocialAccounts(deps.db, userId);
}

/**
 * Disconnects one of the user's provider accounts (its stored tokens go
 * with it), with the `social.disconnected` event the API writes. Unlike the
 * user, an administrator may remove the last way to log in: the account can
 * still be given a password or a reset link. Null when it is not theirs.
 */
export async function disconnectSocialAccount(deps: AdminDeps, source: AuditSource, user: User, accountId: number): Promise<SocialAccount | null> {
  return deps.db.transaction().execute(async (tx) => {
    const account = (await listUserSocialAccounts(tx, user.id)).find((a) => a.id === accountId);
    if (!account) return null;
    await deleteSocialAccount(tx, account.id);
    await recordEvent(deps, tx, source, 'social.disconnected', { userId: user.id, detail: { provider: account.provider } });
    return account;
  });
}
