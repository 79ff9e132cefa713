import type { Conn } from './db.js';

// Ceremonies in progress, one per session and purpose: a new one replaces
// the last (only the latest TOTP secret or WebAuthn challenge counts), and
// taking one is a conditional DELETE, so it is used at most once.

export type ChallengePurpose = 'totp_setup' | 'webauthn_register' | 'webauthn_authenticate' | 'webauthn_reauthenticate' | 'webauthn_login' | 'webauthn_signup';

export interface Challenge {
  id: number;
  sessionId: number;
  purpose: ChallengePurpose;
  /** The user it was issued for; null before anyone logged in (passkey login). */
  userId: number | null;
  /** A sealed TOTP secret, or the hash of a WebAuthn challenge. */
  value: string;
  data: Record<string, unknown>;
  expiresAt: number;
}

export async function putChallenge(conn: Conn, input: Omit<Challenge, 'id'>): Promise<void> {
  const values = { user_id: input.userId, value: input.value, data: JSON.stringify(input.data), expires_at: input.expiresAt };
  await conn
    .insertInto('mfa_challenges')
    .values({ session_id: input.sessionId, purpose: input.purpose, ...values })
    .onConflict((oc) => oc.columns(['session_id', 'purpose']).doUpdateSet(values))
    .execute();
}

/** The session's live challenge for `purpose`, left in place. */
export async function findChallenge(conn: Conn, sessionId: number, purpose: ChallengePurpose, now: number): Promise<Challenge | null> {
  const row = await conn
    .selectFrom('mfa_challenges')
    .select(['id', 'session_id', 'purpose', 'user_id', 'value', 'data', 'expires_at'])
    .where('session_id', '=', sessionId)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    sessionId: row.session_id,
    purpose: row.purpose as ChallengePurpose,
    userId: row.user_id,
    value: row.value,
    data: JSON.parse(row.data) as Record<string, unknown>,
    expiresAt: row.expires_at,
  };
}

/** Removes exactly this challenge; true for the one request that did (it may use it). */
export async function takeChallenge(conn: Conn, challenge: Challenge): Promise<boolean> {
  const result = await conn.deleteFrom('mfa_challenges').where('id', '=', challenge.id).where('value', '=', challenge.value).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
