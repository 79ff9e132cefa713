import type { Config } from '../../config/config.js';
import type { Conn } from '../../store/db.js';
import { deleteOtherEmailAddresses, findEmailAddressById, listUserEmailAddresses, setPrimaryEmailAddress } from '../../store/email-addresses.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';

/**
 * What verifying an address changes beyond its flag, as in the reference:
 * with ACCOUNT_CHANGE_EMAIL the verified address replaces the old one;
 * otherwise it becomes primary only if the account has no primary yet.
 * Each side effect is an event, on `conn` with the verification. Answers the change of
 * primary address when there was one before (for the email_changed notice), else null.
 */
export async function settleVerifiedAddress(deps: { config: Config }, conn: Conn, source: AuditSource, emailAddressId: number): Promise<{ from: string; to: string } | null> {
  const address = await findEmailAddressById(conn, emailAddressId);
  if (!address || address.primary) return null;
  const userId = address.userId;
  if (deps.config.account.emailManagement.changeEmail) {
    const before = (await listUserEmailAddresses(conn, userId)).find((a) => a.primary);
    await setPrimaryEmailAddress(conn, userId, address.id);
    await recordEvent(deps, conn, source, 'email.primary_changed', { userId, detail: { email: address.email } });
    for (const old of await deleteOtherEmailAddresses(conn, userId, address.id)) {
      await recordEvent(deps, conn, source, 'email.removed', { userId, detail: { email: old, reason: 'replaced' } });
    }
    return before ? { from: before.email, to: address.email } : null;
  }
  const addresses = await listUserEmailAddresses(conn, userId);
  if (addresses.some((a) => a.primary)) return null;
  await setPrimaryEmailAddress(conn, userId, address.id);
  await recordEvent(deps, conn, source, 'email.primary_changed', { userId, detail: { email: address.email } });
  return null;
}
