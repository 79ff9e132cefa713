import { sql, type Kysely } from 'kysely';

// The provider's lookups by grant, user code, uid and account only ever ask
// for a value, never for NULL; most rows have none of them (a client
// credentials token has no grant, user or code). Partial indexes skip those
// rows, so each such token writes one index entry less per column.

const INDEXES = [
  { name: 'idp_payloads_grant', columns: ['grant_id'], column: 'grant_id' },
  { name: 'idp_payloads_user_code', columns: ['model', 'user_code'], column: 'user_code' },
  { name: 'idp_payloads_uid', columns: ['model', 'uid'], column: 'uid' },
  { name: 'idp_payloads_account', columns: ['account_id', 'model'], column: 'account_id' },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const { name, columns, column } of INDEXES) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('idp_payloads').columns(columns).where(sql.ref(column), 'is not', null).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { name, columns } of INDEXES) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('idp_payloads').columns(columns).execute();
  }
}
