import type { Conn } from './db.js';

// Identity providers' answers posted to an ACS, waiting for the browser's
// second leg; stored by the hash of the handle in the browser's cookie.

export interface SamlAcsPost {
  organization: string;
  samlResponse: string;
  relayState: string | null;
}

export async function insertAcsPost(conn: Conn, handleHash: string, post: SamlAcsPost, expiresAt: number): Promise<void> {
  await conn
    .insertInto('saml_acs_posts')
    .values({ handle_hash: handleHash, organization: post.organization, saml_response: post.samlResponse, relay_state: post.relayState, expires_at: expiresAt })
    .execute();
}

/** Deletes and returns a live answer: each is read at most once. */
export async function takeAcsPost(conn: Conn, handleHash: string, now: number): Promise<SamlAcsPost | null> {
  const row = await conn
    .deleteFrom('saml_acs_posts')
    .where('handle_hash', '=', handleHash)
    .where('expires_at', '>', now)
    .returning(['organization', 'saml_response', 'relay_state'])
    .executeTakeFirst();
  return row ? { organization: row.organization, samlResponse: row.saml_response, relayState: row.relay_state } : null;
}

export async function deleteExpiredAcsPosts(conn: Conn, now: number): Promise<void> {
  await conn.deleteFrom('saml_acs_posts').where('expires_at', '<=', now).execute();
}
