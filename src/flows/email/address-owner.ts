import type { Deps } from '../context.js';
import type { User } from '../../domain/user.js';
import { findEmailAddress, type EmailAddress } from '../../store/email-addresses.js';
import { findUserById } from '../../store/users.js';

/**
 * The address as stored and its owner when that account is active, for the
 * flows that must answer alike for unknown addresses (password reset, login
 * by code). The owner is looked up even when the address is unknown (no
 * account has id 0), so both cases run the same queries and take the same time.
 */
export async function addressOwner(deps: Deps, email: string): Promise<{ address: EmailAddress | null; user: User | null }> {
  const address = await findEmailAddress(deps.db, email);
  const owner = await findUserById(deps.db, address?.userId ?? 0);
  return { address, user: owner?.isActive ? owner : null };
}
