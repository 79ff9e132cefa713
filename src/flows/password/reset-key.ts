import type { Config } from '../../config/config.js';
import { secretRing, signer } from '../../security/signing.js';

// Password reset links carry a signed key instead of a stored one, as
// Django's own reset tokens do: the account, the address it was mailed to,
// and when it was issued, signed with SECRET_KEY (any of its fallbacks
// verifies). Nothing is written when a link is asked for, so a request for
// a known address does the same work as one for an unknown address. A key
// dies when it expires (PASSWORD_RESET_TIMEOUT) and when the account's
// password changes after it was issued, which its own use does: it works once.

export interface ResetKeyClaims {
  userId: number;
  /** The address the link was mailed to (verified by a successful reset), if any. */
  emailAddressId: number | null;
  /** Milliseconds since the epoch. */
  issuedAt: number;
}

const PURPOSE = 'password-reset';
const VALUE = /^([0-9a-z]{1,11})-([0-9a-z]{1,11})-([0-9a-z]{1,11})$/;

export function issueResetKey(config: Config, claims: ResetKeyClaims): string {
  const value = [claims.userId, claims.emailAddressId ?? 0, claims.issuedAt].map((n) => n.toString(36)).join('-');
  return signer(secretRing(config), PURPOSE).signValue(value);
}

/** The claims of a key this server signed and that has not expired at `now`, or null. */
export function readResetKey(config: Config, key: string, now: number): ResetKeyClaims | null {
  const value = signer(secretRing(config), PURPOSE).readValue(key);
  const parts = value === null ? null : VALUE.exec(value);
  if (!parts) return null;
  const [userId, emailAddressId, issuedAt] = parts.slice(1).map((part) => parseInt(part, 36)) as [number, number, number];
  if (issuedAt + config.account.passwordReset.keyTimeout * 1000 <= now) return null;
  return { userId, emailAddressId: emailAddressId === 0 ? null : emailAddressId, issuedAt };
}
