import type { Conn } from './db.js';

/** Tokens as stored: sealed by the caller (security/at-rest.ts), never in clear. */
export interface SealedTokens {
  token: string;
  /** The refresh token; null keeps the one stored (providers often send it only once). */
  tokenSecret: string | null;
  expiresAt: number | null;
}

/** Stores or replaces the account's tokens. */
export async function saveSocialTokens(conn: Conn, socialAccountId: number, tokens: SealedTokens, now: number): Promise<void> {
  await conn
    .insertInto('social_tokens')
    .values({ social_account_id: socialAccountId, token: tokens.token, token_secret: tokens.tokenSecret, expires_at: tokens.expiresAt, updated_at: now })
    .onConflict((oc) =>
      oc.column('social_account_id').doUpdateSet((eb) => ({
        token: eb.ref('excluded.token'),
        token_secret: tokens.tokenSecret === null ? eb.ref('social_tokens.token_secret') : eb.ref('excluded.token_secret'),
        expires_at: eb.ref('excluded.expires_at'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/** Stores the account's tokens unless it has some (kept: they may be newer): the new row's id, or null. */
export async function insertSocialTokens(conn: Conn, socialAccountId: number, tokens: SealedTokens, now: number): Promise<number | null> {
  const row = await conn
    .insertInto('social_tokens')
    .values({ social_account_id: socialAccountId, token: tokens.token, token_secret: tokens.tokenSecret, expires_at: tokens.expiresAt, updated_at: now })
    .onConflict((oc) => oc.column('social_account_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}
