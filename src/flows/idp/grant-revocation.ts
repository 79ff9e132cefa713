import type { Config } from '../../config/config.js';
import type { Conn } from '../../store/db.js';
import { revokeUserProviderGrants } from '../../store/idp-payloads.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';

// A user's grants at the OpenID provider's clients end when the account may
// no longer be trusted to hold them: disabled or deleted, its password reset
// or changed, every session ended. Their tokens would otherwise live on
// until they expire (refresh tokens for months), and come back to life when
// a disabled account is enabled again.

/**
 * Revokes every grant and token the provider holds for the user, in `tx`'s
 * transaction, with an `idp.grants_revoked` event when there were any. Call
 * it after the event of the change: that event's back-channel logout finds
 * the clients to tell by these grants.
 */
export async function revokeProviderGrants(deps: { config: Config }, tx: Conn, source: AuditSource, userId: number): Promise<number> {
  const grants = await revokeUserProviderGrants(tx, String(userId));
  if (grants > 0) await recordEvent(deps, tx, source, 'idp.grants_revoked', { userId, detail: { grants } });
  return grants;
}
