import type { Kysely } from 'kysely';

// The OpenID provider (IDP_OIDC_ENABLED). Clients follow the reference's
// allauth_idp_oidc_client row by row (lists are JSON arrays here), so its
// clients import as they are, secrets included: only a hash of a client
// secret is kept. Everything else the provider remembers (authorization
// codes, tokens, grants, device codes, its sessions and interactions) is one
// table of JSON payloads keyed by model and id; ids that are bearer secrets
// (codes, tokens) are stored as their SHA-256 only.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idp_clients')
    .addColumn('id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    // A hash: "sha256$<hex>" for secrets made here, or a Django password hash imported from the reference. Null for public clients.
    .addColumn('secret_hash', 'varchar(255)')
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('default_scopes', 'text', (c) => c.notNull())
    .addColumn('grant_types', 'text', (c) => c.notNull())
    .addColumn('response_types', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('cors_origins', 'text', (c) => c.notNull())
    .addColumn('allow_uri_wildcards', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skip_consent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backchannel_logout_uri', 'varchar(2048)')
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idp_payloads')
    .addColumn('model', 'varchar(40)', (c) => c.notNull())
    .addColumn('id', 'varchar(128)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'varchar(128)')
    .addColumn('user_code', 'varchar(64)')
    .addColumn('uid', 'varchar(128)')
    .addColumn('account_id', 'varchar(64)')
    // The issuer the row was made under (grants: where back-channel logout tokens come from).
    .addColumn('issuer', 'varchar(255)')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('idp_payloads_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('idp_payloads_grant').on('idp_payloads').column('grant_id').execute();
  await db.schema.createIndex('idp_payloads_user_code').on('idp_payloads').columns(['model', 'user_code']).execute();
  await db.schema.createIndex('idp_payloads_uid').on('idp_payloads').columns(['model', 'uid']).execute();
  await db.schema.createIndex('idp_payloads_account').on('idp_payloads').columns(['account_id', 'model']).execute();
  await db.schema.createIndex('idp_payloads_expiry').on('idp_payloads').column('expires_at').execute();

  // The webhook outbox also carries OpenID back-channel logout requests to
  // clients (form-encoded logout tokens instead of signed JSON events), with
  // the same retries and the same guarantee: written in the transaction of
  // the session's end, delivered at least once.
  await db.schema.alterTable('webhook_deliveries').addColumn('kind', 'varchar(32)', (c) => c.notNull().defaultTo('webhook')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('kind').execute();
  await db.schema.dropTable('idp_payloads').execute();
  await db.schema.dropTable('idp_clients').execute();
}
