import type { Kysely } from 'kysely';

// SAML's assertion consumer service receives the identity provider's answer
// as a cross-site POST, which carries none of the browser's SameSite cookies.
// The answer waits here, under the hash of a handle kept in a cookie the POST
// sets, until the browser's same-site second leg (acs/finish/) validates it
// with the binding cookie of the flow. Assertion ids are kept once in
// social_token_uses, as ID token ids are.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('saml_acs_posts')
    .addColumn('handle_hash', 'varchar(64)', (c) => c.primaryKey())
    // The organization slug of the ACS path the answer was posted to.
    .addColumn('organization', 'text', (c) => c.notNull())
    .addColumn('saml_response', 'text', (c) => c.notNull())
    .addColumn('relay_state', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_acs_posts_expires_at').on('saml_acs_posts').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saml_acs_posts').execute();
}
