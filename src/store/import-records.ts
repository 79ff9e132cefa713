import type { Conn } from './db.js';

/** The kinds of imported rows. */
export type ImportKind =
  /** A source user; target: users.id. */
  | 'user'
  /** A row of allauth's account_emailaddress; target: email_addresses.id. */
  | 'email_address'
  /** A user's auth_user.email that has no row of its own; target: email_addresses.id. */
  | 'user_email'
  /** A live Django session, by the SHA-256 of its key; target: sessions.id. */
  | 'session'
  /** A row of mfa_authenticator; target: mfa_authenticators.id. */
  | 'mfa_authenticator'
  /** A row of socialaccount_socialaccount; target: social_accounts.id. */
  | 'social_account'
  /** A row of socialaccount_socialtoken; target: social_tokens.id. */
  | 'social_token'
  /** A client of allauth.idp.oidc; target: 0 (idp_clients keeps the same id). */
  | 'idp_client'
  /** A refresh token of allauth.idp.oidc; target: 0 (idp_payloads keeps it under the same hash). */
  | 'idp_refresh_token';

export interface ImportRecord {
  sourceId: string;
  targetId: number;
  fingerprint: string | null;
  importedAt: number;
}

/** The records of the given source rows, by source id; rows never imported are absent. */
export async function findImportRecords(conn: Conn, source: string, kind: ImportKind, sourceIds: string[]): Promise<Map<string, ImportRecord>> {
  const found = new Map<string, ImportRecord>();
  if (sourceIds.length === 0) return found;
  const rows = await conn
    .selectFrom('import_records')
    .select(['source_id', 'target_id', 'fingerprint', 'imported_at'])
    .where('source', '=', source)
    .where('kind', '=', kind)
    .where('source_id', 'in', sourceIds)
    .execute();
  for (const row of rows) {
    found.set(row.source_id, { sourceId: row.source_id, targetId: row.target_id, fingerprint: row.fingerprint, importedAt: row.imported_at });
  }
  return found;
}

export interface NewImportRecord {
  source: string;
  kind: ImportKind;
  sourceId: string;
  targetId: number;
  fingerprint: string | null;
  importedAt: number;
}

export async function insertImportRecords(conn: Conn, records: NewImportRecord[]): Promise<void> {
  // 6 values a row: 500 rows stay far below either dialect's limit on bound values.
  for (let i = 0; i < records.length; i += 500) {
    await conn
      .insertInto('import_records')
      .values(
        records.slice(i, i + 500).map((r) => ({
          source: r.source,
          kind: r.kind,
          source_id: r.sourceId,
          target_id: r.targetId,
          fingerprint: r.fingerprint,
          imported_at: r.importedAt,
        })),
      )
      .execute();
  }
}

/** Where a row here came from, if it was imported. */
export async function findImportOrigin(conn: Conn, kind: ImportKind, targetId: number): Promise<{ source: string; sourceId: string; importedAt: number } | null> {
  const row = await conn
    .selectFrom('import_records')
    .select(['source', 'source_id', 'imported_at'])
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? { source: row.source, sourceId: row.source_id, importedAt: row.imported_at } : null;
}
