import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

// Social login. Accounts are keyed on (provider, uid), as the reference's
// socialaccount_socialaccount, so its rows import as they are; provider
// tokens (socialaccount_socialtoken) are kept sealed at rest. Redirect-flow
// states and the ID tokens already redeemed (by jti) live here too, so that
// every instance sees them and each is used once.
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('social_accounts'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The public provider id: an openid_connect app's provider_id, else the provider type.
    .addColumn('provider', 'varchar(200)', (c) => c.notNull())
    .addColumn('uid', 'varchar(191)', (c) => c.notNull())
    .addColumn('extra_data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('social_accounts_provider_uid', ['provider', 'uid'])
    .execute();
  await db.schema.createIndex('social_accounts_user_id').on('social_accounts').column('user_id').execute();

  await idColumn(db, db.schema.createTable('social_tokens'))
    .addColumn('social_account_id', 'integer', (c) => c.notNull().unique().references('social_accounts.id').onDelete('cascade'))
    // Sealed (security/at-rest.ts): access token, and refresh token when the provider gave one.
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('token_secret', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('social_login_states'))
    // SHA-256 of the state parameter and of the browser's binding cookie.
    .addColumn('state_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('binding_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('provider', 'varchar(200)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(191)', (c) => c.notNull())
    .addColumn('process', 'varchar(16)', (c) => c.notNull())
    .addColumn('callback_url', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    // Sealed PKCE verifier; null when the app has PKCE off.
    .addColumn('code_verifier', 'text')
    // Who started a connect: the callback must find the same user logged in.
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    // Apple's form_post `user` field, kept for the callback's second leg.
    .addColumn('posted_user', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('social_login_states_binding').on('social_login_states').column('binding_hash').execute();
  await db.schema.createIndex('social_login_states_expires_at').on('social_login_states').column('expires_at').execute();

  await db.schema
    .createTable('social_token_uses')
    // SHA-256 of issuer and jti.
    .addColumn('key_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('social_token_uses_expires_at').on('social_token_uses').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['social_token_uses', 'social_login_states', 'social_tokens', 'social_accounts']) {
    await db.schema.dropTable(table).execute();
  }
}
