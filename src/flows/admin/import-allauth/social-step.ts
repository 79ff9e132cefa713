import type { Tx } from '../../../store/db.js';
import { readSocialAccounts, readSocialTokens, type SourceSocialAccount, type SourceSocialToken } from '../../../store/allauth/social-accounts.js';
import { countRows } from '../../../store/allauth/row-counts.js';
import { readSocialApps } from '../../../store/allauth/social-apps.js';
import { findImportRecords, insertImportRecords, type NewImportRecord } from '../../../store/import-records.js';
import { existingSocialAccountIds, insertSocialAccount } from '../../../store/social-accounts.js';
import { insertSocialTokens } from '../../../store/social-tokens.js';
import { sealProviderTokens } from '../../social/provider-tokens.js';
import { importedUserIds } from './imported-users.js';
import { routeProvider, type ProviderRoute } from './providers.js';
import type { SkipReason } from './summary.js';
import type { ImportRun, ImportStep } from './step.js';

/**
 * Social accounts of imported users, under this server's provider ids (see
 * providers.ts), with what the provider said (extra_data) and their dates;
 * and their stored tokens, sealed at rest as the server seals its own, when
 * SOCIALACCOUNT_STORE_TOKENS is on here.
 */
export const socialStep: ImportStep = {
  label: 'social',
  total: (run) => countRows(run.source, 'socialaccount_socialaccount'),
  async run(run, advance) {
    const apps = await readSocialApps(run.source);
    // Each provider value is placed once, when its first account comes, and its accounts counted.
    const routes = new Map<string, ProviderRoute>();
    const routeOf = (provider: string): ProviderRoute => {
      let route = routes.get(provider);
      if (!route) routes.set(provider, (route = routeProvider(provider, apps, run.config.social.apps, run.providerMap)));
      route.accounts++;
      return route;
    };
    for (let after = 0; ; ) {
      const accounts = await readSocialAccounts(run.source, after, run.batchSize);
      if (accounts.length === 0) break;
      await importBatch(run, accounts, routeOf);
      after = accounts.at(-1)!.id;
      advance(accounts.length);
    }
    run.summary.providers = [...routes.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  },
};

async function importBatch(run: ImportRun, accounts: SourceSocialAccount[], routeOf: (provider: string) => ProviderRoute): Promise<void> {
  const tokens = await readSocialTokens(run.source, accounts.map((a) => a.id));
  await run.db.transaction().execute(async (tx) => {
    const imported = await findImportRecords(tx, run.sourceName, 'social_account', accounts.map((a) => String(a.id)));
    const importedTokens = await findImportRecords(tx, run.sourceName, 'social_token', tokens.map((t) => String(t.id)));
    // Accounts imported before may have been disconnected here since.
    const existing = await existingSocialAccountIds(tx, [...imported.values()].map((r) => r.targetId));
    const owners = await importedUserIds(tx, run, accounts.map((a) => a.userId));
    const created: NewImportRecord[] = [];
    const remember = (kind: 'social_account' | 'social_token', sourceId: number, targetId: number) =>
      created.push({ source: run.sourceName, kind, sourceId: String(sourceId), targetId, fingerprint: null, importedAt: run.now });

    for (const account of accounts) {
      const route = routeOf(account.provider);
      let accountId: number | null = null;
      const record = imported.get(String(account.id));
      if (record) {
        run.summary.alreadyImported('social_accounts');
        if (existing.has(record.targetId)) accountId = record.targetId;
      } else {
        const outcome = await importAccount(tx, account, owners.get(account.userId), route);
        if (typeof outcome === 'string') run.summary.skipped('social_accounts', outcome);
        else {
          remember('social_account', account.id, outcome);
          run.summary.imported('social_accounts');
          accountId = outcome;
        }
      }
      for (const token of tokens.filter((t) => t.accountId === account.id)) {
        if (importedTokens.has(String(token.id))) {
          run.summary.alreadyImported('social_tokens');
          continue;
        }
        const outcome = accountId === null ? 'account_not_imported' : await importToken(run, tx, token, accountId);
        if (typeof outcome === 'string') run.summary.skipped('social_tokens', outcome);
        else {
          remember('social_token', token.id, outcome);
          run.summary.imported('social_tokens');
        }
      }
    }
    await insertImportRecords(tx, created);
  });
}

/** The new social account's id, or why the row stays behind. */
async function importAccount(tx: Tx, account: SourceSocialAccount, userId: number | undefined, route: ProviderRoute): Promise<number | SkipReason> {
  if (userId === undefined) return 'user_not_imported';
  if (route.target === null) return route.skip!;
  if (account.extraData === null) return 'unreadable';
  const uid = uidHere(account, route);
  if (uid === null) return 'unreadable';
  const made = await insertSocialAccount(tx, {
    userId,
    provider: route.target,
    uid,
    extraData: account.extraData,
    now: account.dateJoined,
    lastLoginAt: account.lastLogin,
  });
  return made?.id ?? 'connected_here';
}

/**
 * The account's uid as the provider here derives it. Drip's in the reference
 * is Python's hash() of the address, different in every process, so no login
 * could find the account again; here it is the address, from extra_data.
 */
function uidHere(account: SourceSocialAccount, route: ProviderRoute): string | null {
  if (route.type !== 'drip') return account.uid;
  const email = account.extraData?.email;
  return typeof email === 'string' && email !== '' ? email : null;
}

/** The new token row's id, or why the token stays behind. */
async function importToken(run: ImportRun, tx: Tx, token: SourceSocialToken, accountId: number): Promise<number | SkipReason> {
  // The server keeps no tokens unless told to; the import does as it would.
  if (!run.config.social.storeTokens) return 'tokens_not_stored';
  // allauth keeps a missing refresh token (token_secret) as ''.
  const tokens = { accessToken: token.token, refreshToken: token.tokenSecret === '' ? null : token.tokenSecret, expiresAt: token.expiresAt };
  return (await insertSocialTokens(tx, accountId, sealProviderTokens(run.atRest, accountId, tokens), run.now)) ?? 'token_here';
}
