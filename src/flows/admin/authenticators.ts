import type { Authenticator } from '../../domain/authenticator.js';
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
