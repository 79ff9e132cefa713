import type { Kysely } from 'kysely';

// Single logout started by us: a session that came from a SAML login keeps
// the IdP's NameID, its format and the SessionIndex, which the LogoutRequest
// must name; the row dies with the session. A logout through the API sends
// the browser to the IdP with a LogoutRequest, whose ID waits here for the
// IdP's LogoutResponse at /accounts/saml/<org>/sls/.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('saml_sessions')
    .addColumn('session_id', 'integer', (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
    // The organization slug (the app's client_id) of the login, and the origin its ACS was reached at (our entity id may depend on it).
    .addColumn('organization', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('name_id', 'text', (c) => c.notNull())
    .addColumn('name_id_format', 'text')
    .addColumn('session_index', 'text')
    .execute();
  await db.schema
    .createTable('saml_logouts')
    // The hash of our LogoutRequest's ID, which the IdP's LogoutResponse names in InResponseTo.
    .addColumn('request_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_logouts_expires_at').on('saml_logouts').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saml_logouts').execute();
  await db.schema.dropTable('saml_sessions').execute();
}
