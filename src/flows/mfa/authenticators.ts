import type { Deps, RequestContext } from '../context.js';
import type { User } from '../../domain/user.js';
import { notAuthenticated, type Outcome } from '../outcome.js';
import { sealContext, type Authenticator, type AuthenticatorInfo, type RecoveryCodesAuthenticator } from '../../domain/authenticator.js';
import { authenticatorTypes, listAuthenticators } from '../../store/mfa-authenticators.js';
import { listUserEmailAddresses } from '../../store/email-addresses.js';
import { deriveRecoveryCodes, isUsed } from '../../security/recovery-codes.js';

/** The user's recovery codes in generation order, each with whether it is still unused. */
export function recoveryCodes(deps: Deps, authenticator: RecoveryCodesAuthenticator): Array<{ code: string; unused: boolean }> {
  const seed = deps.atRest.open(authenticator.sealedSeed, sealContext('recovery_codes', authenticator.userId));
  // A seed that does not open (its key left the ring) yields no codes rather than wrong ones.
  if (seed === null) return [];
  const { count, digits } = deps.config.mfa.recoveryCodes;
  return deriveRecoveryCodes(seed, count, digits).map((code, i) => ({ code, unused: !isUsed(authenticator.usedMask, i) }));
}

/** What the API shows of an authenticator; `withCodes` adds the unused recovery codes themselves. */
export function describeAuthenticator(deps: Deps, a: Authenticator, withCodes = false): AuthenticatorInfo {
  const base = { type: a.type, createdAt: a.createdAt, lastUsedAt: a.lastUsedAt };
  if (a.type === 'webauthn') return { ...base, webauthn: { id: a.id, name: a.name, passwordless: a.passwordless } };
  if (a.type !== 'recovery_codes') return base;
  const codes = recoveryCodes(deps, a);
  const unused = codes.filter((c) => c.unused).map((c) => c.code);
  return { ...base, recoveryCodes: { total: codes.length, unused: unused.length, ...(withCodes ? { codes: unused } : {}) } };
}

/** GET /account/authenticators: every authenticator in creation order, never the codes themselves. */
export async function listUserAuthenticators(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  if (!ctx.user) return notAuthenticated;
  const authenticators = await listAuthenticators(deps.db, ctx.user.id);
  return { kind: 'authenticators', authenticators: authenticators.map((a) => describeAuthenticator(deps, a)) };
}

/**
 * Whether an unverified address stops the user from adding an authenticator
 * (MFA_ALLOW_UNVERIFIED_EMAIL off): whoever signed up with someone else's
 * address must not be able to lock its owner out with a second factor.
 */
export async function unverifiedAddressBlocks(deps: Deps, user: User): Promise<boolean> {
  if (deps.config.mfa.allowUnverifiedEmail) return false;
  const addresses = await listUserEmailAddresses(deps.db, user.id);
  return addresses.some((a) => !a.verified);
}

/**
 * Whether MFA stops the user from adding an email address, as in the
 * reference: a new, unverified address on a protected account is the other
 * half of the same lock-out. Not when addresses are verified by code or
 * MFA_ALLOW_UNVERIFIED_EMAIL is on.
 */
export async function mfaBlocksNewAddress(deps: Deps, user: User): Promise<boolean> {
  const { mfa, account } = deps.config;
  if (!mfa.enabled || mfa.allowUnverifiedEmail || account.emailVerificationByCode) return false;
  return (await authenticatorTypes(deps.db, user.id)).length > 0;
}
