import { createHash } from 'node:crypto';
import type { Config } from '../../config/config.js';
import { constantTimeEqual } from '../../security/secrets.js';
import { secretRing, signer } from '../../security/signing.js';

// Password reset links carry a signed key instead of a stored one, as
// Django's own reset tokens do: the account, the address it was mailed to,
// when it was issued, and a digest of the account state the link was made
// for (the password hash, the last login, the address), signed with
// SECRET_KEY (any of its fallbacks verifies). Nothing is written when a link
// is asked for. A key dies when it expires (PASSWORD_RESET_TIMEOUT) and as
// soon as that state moves on: a password change (its own use is one, so it
// works once), a login since it was mailed, or a change of the address. A
// link left in an old mailbox is worth nothing after any of them.

export interface ResetKeyClaims {
  userId: number;
  /** The address the link was mailed to (verified by a successful reset), if any. */
  emailAddressId: number | null;
  /** Milliseconds since the epoch. */
  issuedAt: number;
}

/** What a key is bound to: the account state it was issued for. */
export interface ResetKeyState {
  passwordHash: string | null;
  lastLoginAt: number | null;
  /** The address the key was mailed to, as stored now (null once it is gone). */
  email: string | null;
}

const PURPOSE = 'password-reset';
const VALUE = /^([0-9a-z]{1,11})-([0-9a-z]{1,11})-([0-9a-z]{1,11})-([A-Za-z0-9_-]{22})$/;

function stateDigest(state: ResetKeyState): string {
  const parts = [state.passwordHash ?? '', state.lastLoginAt ?? 0, state.email?.toLowerCase() ?? ''];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

export function issueResetKey(config: Config, claims: ResetKeyClaims, state: ResetKeyState): string {
  const numbers = [claims.userId, claims.emailAddressId ?? 0, claims.issuedAt].map((n) => n.toString(36));
  return signer(secretRing(config), PURPOSE).signValue([...numbers, stateDigest(state)].join('-'));
}

/** The claims of a key this server signed and that has not expired at `now`, or null; check its state with `resetKeyCurrent`. */
export function readResetKey(config: Config, key: string, now: number): (ResetKeyClaims & { state: string }) | null {
  const value = signer(secretRing(config), PURPOSE).readValue(key);
  const parts = value === null ? null : VALUE.exec(value);
  if (!parts) return null;
  const [userId, emailAddressId, issuedAt] = parts.slice(1, 4).map((part) => parseInt(part, 36)) as [number, number, number];
  if (issuedAt + config.account.passwordReset.keyTimeout * 1000 <= now) return null;
  return { userId, emailAddressId: emailAddressId === 0 ? null : emailAddressId, issuedAt, state: parts[4]! };
}

/** Whether the account is still in the state the key was issued for. */
export function resetKeyCurrent(claims: { state: string }, state: ResetKeyState): boolean {
  return constantTimeEqual(claims.state, stateDigest(state));
}
