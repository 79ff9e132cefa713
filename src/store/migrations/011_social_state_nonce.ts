import type { Kysely } from 'kysely';

// The redirect flow's OpenID Connect nonce, kept with its state (sealed, as
// the PKCE verifier): the ID token at the callback must carry it back.
export async function up(db: Kysely<any>): Promise<void> {
  // Null when the flow sent none (a provider without ID tokens).
  await db.schema.alterTable('social_login_states').addColumn('nonce', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('social_login_states').dropColumn('nonce').execute();
}
