import type { Deps, RequestContext } from '../context.js';
import type { Conn } from '../../store/db.js';
import { sealContext, type RecoveryCodesAuthenticator, type TotpAuthenticator } from '../../domain/authenticator.js';
import { advanceTotpCounter, listAuthenticators, resealSecret, spendRecoveryCode } from '../../store/mfa-authenticators.js';
import { matchTotp } from '../../security/totp.js';
import { deriveRecoveryCodes, isUsed } from '../../security/recovery-codes.js';
import { constantTimeEqual, normalizeCode } from '../../security/secrets.js';

// Checking a typed second-factor code: a TOTP code or an unused recovery
// code of the user. "Used once" is decided by a conditional UPDATE (the TOTP
// time step moves forward, a recovery code's bit gets set), so however many
// requests carry one code, in however many processes, one of them wins.

/** Accepts a TOTP code of a time step after the last one accepted. */
async function spendTotp(deps: Deps, conn: Conn, totp: TotpAuthenticator, code: string, now: number): Promise<boolean> {
  const { totp: settings } = deps.config.mfa;
  // Development only (refused in production): the code always passes and is never used up.
  if (settings.insecureBypassCode !== undefined && constantTimeEqual(code, settings.insecureBypassCode)) return true;
  const context = sealContext('totp', totp.userId);
  const secret = deps.atRest.open(totp.sealedSecret, context);
  if (secret === null) return false;
  const step = matchTotp(secret, code, now, settings);
  if (step === null || (totp.lastCounter !== null && step <= totp.lastCounter)) return false;
  if (!(await advanceTotpCounter(conn, totp.id, step, now))) return false;
  await resealIfStale(deps, conn, totp.id, totp.sealedSecret, secret, context);
  return true;
}

/** Accepts an unused recovery code, marking it used. */
async function spendRecovery(deps: Deps, conn: Conn, codes: RecoveryCodesAuthenticator, code: string, now: number): Promise<boolean> {
  const context = sealContext('recovery_codes', codes.userId);
  const seed = deps.atRest.open(codes.sealedSeed, context);
  if (seed === null) return false;
  const { count, digits } = deps.config.mfa.recoveryCodes;
  let index = -1;
  // Every code is compared, so the time taken does not tell which matched.
  deriveRecoveryCodes(seed, count, digits).forEach((candidate, i) => {
    if (constantTimeEqual(code, candidate) && !isUsed(codes.usedMask, i)) index = i;
  });
  if (index < 0 || !(await spendRecoveryCode(conn, codes.id, index, now))) return false;
  await resealIfStale(deps, conn, codes.id, codes.sealedSeed, seed, context);
  return true;
}

/** After a SECRET_KEY rotation a secret is sealed anew under the current key the first time it is used. */
async function resealIfStale(deps: Deps, conn: Conn, id: number, sealed: string, plain: string, context: string): Promise<void> {
  if (deps.atRest.isStale(sealed)) await resealSecret(conn, id, sealed, deps.atRest.seal(plain, context));
}

/**
 * Checks `code` against the user's TOTP authenticator, then their recovery
 * codes, and spends it: the authenticator it belonged to, or null.
 */
export async function spendCode(deps: Deps, conn: Conn, userId: number, code: string, now: number): Promise<TotpAuthenticator | RecoveryCodesAuthenticator | null> {
  // Typed by hand: spaces and dashes are ignored.
  const typed = normalizeCode(code);
  if (typed === '') return null;
  const authenticators = await listAuthenticators(conn, userId);
  const totp = authenticators.find((a): a is TotpAuthenticator => a.type === 'totp');
  if (totp && (await spendTotp(deps, conn, totp, typed, now))) return totp;
  const codes = authenticators.find((a): a is RecoveryCodesAuthenticator => a.type === 'recovery_codes');
  return codes && (await spendRecovery(deps, conn, codes, typed, now)) ? codes : null;
}

export type Limited<T> = { ok: true; value: T } | { ok: false; locked: boolean };

/**
 * Runs a second-factor check under the login_failed limit, as the reference
 * does: per IP, and per user under the key `mfa-auth-user-<id>`. The attempt
 * is spent before the check, so parallel guesses cannot overshoot; a success
 * clears the user's counter only. (The reference also clears the IP's,
 * which would let one account's success reset the count of guesses made at
 * others from the same address.)
 */
export async function underFailedLoginLimit<T>(deps: Deps, ctx: RequestContext, userId: number, check: () => Promise<T | null>): Promise<Limited<T>> {
  const subject = { ip: ctx.ip, key: `mfa-auth-user-${userId}` };
  const attempt = await deps.limiter.consume('login_failed', subject);
  if (!attempt.ok) return { ok: false, locked: true };
  const value = await check();
  if (value === null) return { ok: false, locked: false };
  await deps.limiter.clear('login_failed', subject);
  return { ok: true, value };
}
