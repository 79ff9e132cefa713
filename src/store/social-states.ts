import type { Conn } from './db.js';

// Redirect-flow states, stored by the hash of the state parameter and bound
// to the browser by the hash of its binding cookie.

export interface SocialLoginState {
  provider: string;
  clientId: string;
  process: string;
  callbackUrl: string;
  redirectUri: string;
  /** Sealed. */
  codeVerifier: string | null;
  /** Sealed: the OpenID Connect nonce sent, null when none was. */
  nonce: string | null;
  /** Sealed: OAuth 1.0a's request token secret, null when the protocol keeps none. */
  secret: string | null;
  userId: number | null;
  postedUser: string | null;
}

/** At most this many open flows per browser, as the reference: the oldest goes first. */
const MAX_PER_BROWSER = 10;

export async function insertState(conn: Conn, input: SocialLoginState & { stateHash: string; bindingHash: string; now: number; expiresAt: number }): Promise<void> {
  const older = await conn
    .selectFrom('social_login_states')
    .select('id')
    .where('binding_hash', '=', input.bindingHash)
    .orderBy('id', 'desc')
    .offset(MAX_PER_BROWSER - 1)
    .limit(1000)
    .execute();
  if (older.length > 0) await conn.deleteFrom('social_login_states').where('id', 'in', older.map((r) => r.id)).execute();
  await conn
    .insertInto('social_login_states')
    .values({
      state_hash: input.stateHash,
      binding_hash: input.bindingHash,
      provider: input.provider,
      client_id: input.clientId,
      process: input.process,
      callback_url: input.callbackUrl,
      redirect_uri: input.redirectUri,
      code_verifier: input.codeVerifier,
      nonce: input.nonce,
      secret: input.secret,
      user_id: input.userId,
      posted_user: input.postedUser,
      created_at: input.now,
      expires_at: input.expiresAt,
    })
    .execute();
}

/**
 * Redeems a state: deletes it and returns what it held, only if it is live
 * and bound to this browser. The delete decides, so a replayed or parallel
 * callback gets it at most once.
 */
export async function takeState(conn: Conn, stateHash: string, bindingHash: string, now: number): Promise<SocialLoginState | null> {
  const row = await conn
    .deleteFrom('social_login_states')
    .where('state_hash', '=', stateHash)
    .where('binding_hash', '=', bindingHash)
    .where('expires_at', '>', now)
    .returning(['provider', 'client_id', 'process', 'callback_url', 'redirect_uri', 'code_verifier', 'nonce', 'secret', 'user_id', 'posted_user'])
    .executeTakeFirst();
  if (!row) return null;
  return {
    provider: row.provider,
    clientId: row.client_id,
    process: row.process,
    callbackUrl: row.callback_url,
    redirectUri: row.redirect_uri,
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    secret: row.secret,
    userId: row.user_id,
    postedUser: row.posted_user,
  };
}

/** Apple's form_post: keeps its `user` field for the second leg of the callback (the first value only). */
export async function attachPostedUser(conn: Conn, stateHash: string, postedUser: string, now: number): Promise<void> {
  await conn
    .updateTable('social_login_states')
    .set({ posted_user: postedUser })
    .where('state_hash', '=', stateHash)
    .where('posted_user', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

export async function deleteExpiredStates(conn: Conn, now: number): Promise<void> {
  await conn.deleteFrom('social_login_states').where('expires_at', '<=', now).execute();
}
