import type { Config } from '../../config/config.js';
import type { Conn } from '../../store/db.js';
import { deleteOtherEmailAddresses, findEmailAddressById, listUserEmailAddresses, setPrimaryEmailAddress } from '../../store/email-addresses.js';

/**
 * What verifying an address changes beyond its flag, as in the reference:
 * with ACCOUNT_CHANGE_EMAIL the verified address replaces the old one;
 * otherwise it becomes primary only if the account has no primary yet.
 */
export async function settleVerifiedAddress(config: Config, conn: Conn, emailAddressId: number): Promise<void> {
  const address = await findEmailAddressById(conn, emailAddressId);
  if (!address || address.primary) return;
  if (config.account.emailManagement.changeEmail) {
    await setPrimaryEmailAddress(conn, address.userId, address.id);
    await deleteOtherEmailAddresses(conn, address.userId, address.id);
    return;
  }
  const addresses = await listUserEmailAddresses(conn, address.userId);
  if (!addresses.some((a) => a.primary)) await setPrimaryEmailAddress(conn, address.userId, address.id);
}
