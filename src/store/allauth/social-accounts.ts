import { sourceJson, sourceMillis, type AllauthSource } from './source.js';

/** A row of socialaccount_socialaccount. */
export interface SourceSocialAccount {
  id: number;
  userId: number;
  /** The provider's id: an app's provider_id where it has one (OpenID Connect, SAML), else the provider type. */
  provider: string;
  uid: string;
  /** Null when the column holds no JSON object. */
  extraData: Record<string, unknown> | null;
  dateJoined: number;
  lastLogin: number;
}

/** A row of socialaccount_socialtoken. */
export interface SourceSocialToken {
  id: number;
  accountId: number;
  token: string;
  /** The refresh token (OAuth 2) or token secret (OAuth 1); empty when none. */
  tokenSecret: string;
  expiresAt: number | null;
}

/** The next `limit` social accounts after `afterId`, by id. */
export async function readSocialAccounts(source: AllauthSource, afterId: number, limit: number): Promise<SourceSocialAccount[]> {
  if (!source.tables.has('socialaccount_socialaccount')) return [];
  const rows = await source.conn
    .selectFrom('socialaccount_socialaccount')
    .select(['id', 'user_id', 'provider', 'uid', 'extra_data', 'date_joined', 'last_login'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    userId: Number(row.user_id),
    provider: row.provider,
    uid: row.uid,
    extraData: sourceJson(row.extra_data),
    dateJoined: sourceMillis(row.date_joined)!,
    lastLogin: sourceMillis(row.last_login)!,
  }));
}

/** The stored tokens of the given accounts, by account then id. */
export async function readSocialTokens(source: AllauthSource, accountIds: number[]): Promise<SourceSocialToken[]> {
  if (accountIds.length === 0 || !source.tables.has('socialaccount_socialtoken')) return [];
  const rows = await source.conn
    .selectFrom('socialaccount_socialtoken')
    .select(['id', 'account_id', 'token', 'token_secret', 'expires_at'])
    .where('account_id', 'in', accountIds)
    .orderBy('account_id')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    accountId: Number(row.account_id),
    token: row.token,
    tokenSecret: row.token_secret ?? '',
    expiresAt: sourceMillis(row.expires_at),
  }));
}
