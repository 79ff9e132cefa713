import type { Kysely } from 'kysely';

// A client that must push its authorization requests (RFC 9126
// require_pushed_authorization_requests): a plain authorization request
// from it is refused.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idp_clients').addColumn('require_pushed_authorization_requests', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idp_clients').dropColumn('require_pushed_authorization_requests').execute();
}
