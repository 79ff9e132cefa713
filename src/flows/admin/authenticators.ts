import type { Authenticator, AuthenticatorType } from '../../domain/authenticator.js';
import { isUsed } from '../../security/recovery-codes.js';
import { deleteAuthenticators, deleteDanglingRecoveryCodes, listAuthenticators } from '../../store/mfa-authenticators.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import type { AdminDeps } from './webhooks.js';

// Removing a user's second factors on an administrator's word (a lost
// phone, a lost key), under the API's rule for recovery codes.

/**
 * Deletes the chosen authenticators in one transaction and, as the API does
 * when a second factor is removed, the recovery codes once no TOTP or
 * WebAuthn authenticator is left. Each one that went is an event of its own.
 * Answers every authenticator that went.
 */
export async function removeAuthenticators(deps: AdminDeps, source: AuditSource, userId: number, chosen: readonly Authenticator[]): Promise<Authenticator[]> {
  return deps.db.transaction().execute(async (tx) => {
    const before = await listAuthenticators(tx, userId);
    await deleteAuthenticators(tx, userId, chosen.map((a) => a.id));
    await deleteDanglingRecoveryCodes(tx, userId);
    const left = new Set((await listAuthenticators(tx, userId)).map((a) => a.id));
    const gone = before.filter((a) => !left.has(a.id));
    for (const a of gone) await recordEvent(deps, tx, source, 'authenticator.removed', { userId, detail: { authenticator: a.type, authenticator_id: a.id } });
    return gone;
  });
}

/** What an administrator sees of an authenticator: never a secret or code. */
export interface AuthenticatorView {
  id: number;
  type: AuthenticatorType;
  createdAt: number;
  lastUsedAt: number | null;
  /** WebAuthn: its name, and whether it is a passkey (null: the browser did not say). */
  key?: { name: string; passkey: boolean | null };
  /** Unused recovery codes out of the configured count, read from the used-code mask alone. */
  recoveryCodes?: { total: number; unused: number };
}

export function viewAuthenticator(a: Authenticator, recoveryCodeCount: number): AuthenticatorView {
  const view: AuthenticatorView = { id: a.id, type: a.type, createdAt: a.createdAt, lastUsedAt: a.lastUsedAt };
  if (a.type === 'webauthn') view.key = { name: a.name, passkey: a.passwordless };
  if (a.type === 'recovery_codes') {
    let unused = 0;
    for (let i = 0; i < recoveryCodeCount; i++) if (!isUsed(a.usedMask, i)) unused++;
    view.recoveryCodes = { total: recoveryCodeCount, unused };
  }
  return view;
}

/** The user's authenticators as stored (secrets sealed), for choosing which to remove. */
export function authenticatorRecordsOf(deps: AdminDeps, userId: number): Promise<Authenticator[]> {
  return listAuthenticators(deps.db, userId);
}

/** A user's authenticators in creation order, as an administrator sees them. */
export async function authenticatorsOf(deps: AdminDeps, userId: number): Promise<AuthenticatorView[]> {
  return (await listAuthenticators(deps.db, userId)).map((a) => viewAuthenticator(a, deps.config.mfa.recoveryCodes.count));
}

/** Removes one authenticator of the user by id (and the recovery codes, when it was the last other one); null when it is not theirs. */
export async function removeAuthenticator(deps: AdminDeps, source: AuditSource, userId: number, id: number): Promise<Authenticator[] | null> {
  const chosen = (await listAuthenticators(deps.db, userId)).filter((a) => a.id === id);
  if (chosen.length === 0) return null;
  return removeAuthenticators(deps, source, userId, chosen);
}
