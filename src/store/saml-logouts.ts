import type { Conn } from './db.js';

// The IdP's subject of each session that came from a SAML login, and the
// single logouts a logout through the API started (migration 024).

export interface SamlSessionSubject {
  organization: string;
  /** This service's origin as the login's browser reached it. */
  origin: string;
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
}

const fields = ['organization', 'origin', 'name_id', 'name_id_format', 'session_index'] as const;

function toSubject(row: { organization: string; origin: string; name_id: string; name_id_format: string | null; session_index: string | null }): SamlSessionSubject {
  return { organization: row.organization, origin: row.origin, nameId: row.name_id, nameIdFormat: row.name_id_format, sessionIndex: row.session_index };
}

function toRow(subject: SamlSessionSubject) {
  return { organization: subject.organization, origin: subject.origin, name_id: subject.nameId, name_id_format: subject.nameIdFormat, session_index: subject.sessionIndex };
}

/** The session's latest SAML login (a later one replaces it). */
export async function recordSamlSession(conn: Conn, sessionId: number, subject: SamlSessionSubject): Promise<void> {
  await conn
    .insertInto('saml_sessions')
    .values({ session_id: sessionId, ...toRow(subject) })
    .onConflict((oc) => oc.column('session_id').doUpdateSet(toRow(subject)))
    .execute();
}

export async function samlSessionOf(conn: Conn, sessionId: number): Promise<SamlSessionSubject | null> {
  const row = await conn.selectFrom('saml_sessions').select(fields).where('session_id', '=', sessionId).executeTakeFirst();
  return row ? toSubject(row) : null;
}

/** Our LogoutRequest, waiting for the IdP's answer. */
export async function insertSamlLogout(conn: Conn, requestHash: string, organization: string, expiresAt: number): Promise<void> {
  await conn.insertInto('saml_logouts').values({ request_hash: requestHash, organization, expires_at: expiresAt }).execute();
}

/** Deletes a live logout and returns its organization: the IdP's LogoutResponse answers it once. */
export async function finishSamlLogout(conn: Conn, requestHash: string, now: number): Promise<string | null> {
  const row = await conn
    .deleteFrom('saml_logouts')
    .where('request_hash', '=', requestHash)
    .where('expires_at', '>', now)
    .returning('organization')
    .executeTakeFirst();
  return row?.organization ?? null;
}

export async function deleteExpiredSamlLogouts(conn: Conn, now: number): Promise<void> {
  await conn.deleteFrom('saml_logouts').where('expires_at', '<=', now).execute();
}
