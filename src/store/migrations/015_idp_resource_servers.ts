import type { Kysely } from 'kysely';

// A client may be a resource server: it may introspect tokens issued to
// other clients (RFC 7662 section 4 lets the provider decide who may). Every
// other client introspects only its own tokens.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idp_clients').addColumn('resource_server', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idp_clients').dropColumn('resource_server').execute();
}
