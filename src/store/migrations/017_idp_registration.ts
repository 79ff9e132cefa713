import type { Kysely } from 'kysely';
import { idColumn } from './columns.js';

// Dynamic client registration (RFC 7591/7592, IDP_OIDC_REGISTRATION). An
// initial access token, made by an administrator, lets its bearer register
// clients until it expires or its uses run out; a registered client's row
// in idp_clients is the same as any other's, and its registration (the
// management token, the metadata of RFC 7591 our client model has no field
// for) is a row beside it that goes with it. Both tokens are stored as
// their SHA-256 only.
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('idp_initial_access_tokens'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    // Null: as many as it likes until it expires.
    .addColumn('uses_left', 'integer')
    .execute();

  await db.schema
    .createTable('idp_client_registrations')
    .addColumn('client_id', 'varchar(100)', (c) => c.primaryKey().references('idp_clients.id').onDelete('cascade'))
    .addColumn('access_token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('initial_access_token_id', 'integer')
    // JSON object: client_uri, logo_uri, contacts, ... and token_endpoint_auth_method, as registered.
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idp_client_registrations').execute();
  await db.schema.dropTable('idp_initial_access_tokens').execute();
}
