import type { Kysely } from 'kysely';

// How an OpenID provider client authenticates: with its secret (sent in the
// Authorization header or in the body, as before), with none (public
// clients) or with a JWT signed by one of its keys (private_key_jwt, RFC
// 7523), whose public JWK Set is kept here or fetched from its jwks_uri.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idp_clients').addColumn('token_endpoint_auth_method', 'varchar(32)', (c) => c.notNull().defaultTo('client_secret_basic')).execute();
  await db.updateTable('idp_clients').set({ token_endpoint_auth_method: 'none' }).where('type', '=', 'public').execute();
  // JSON: {"keys": [...]}, public keys only.
  await db.schema.alterTable('idp_clients').addColumn('jwks', 'text').execute();
  await db.schema.alterTable('idp_clients').addColumn('jwks_uri', 'varchar(2048)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idp_clients').dropColumn('jwks_uri').execute();
  await db.schema.alterTable('idp_clients').dropColumn('jwks').execute();
  await db.schema.alterTable('idp_clients').dropColumn('token_endpoint_auth_method').execute();
}
