import type { Kysely } from 'kysely';

// A secret the provider's protocol needs again at the callback (OAuth 1.0a:
// the request token's secret, which signs the access token request), kept
// sealed with the state as the PKCE verifier is.
export async function up(db: Kysely<any>): Promise<void> {
  // Null for protocols that keep none (OAuth 2, OpenID 2.0, Telegram).
  await db.schema.alterTable('social_login_states').addColumn('secret', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('social_login_states').dropColumn('secret').execute();
}
