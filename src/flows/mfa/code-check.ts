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

/** What a typed code turned out to be; spending it is a separate, conditional step. */
export type CodeMatch =
  | { authenticator: TotpAuthenticator; secret: string; step: number | null }
  | { authenticator: RecoveryCodesAuthenticator; seed: string; index: number };

/** A TOTP code of a time step after the last one accepted (step null: the development bypass code). */
function matchTotpCode(deps: Deps, totp: TotpAuthenticator, code: string, now: number): CodeMatch | null {
  const { totp: settings } = deps.config.mfa;
  // Development only (refused in production): the code always passes and is never used up.
  if (settings.insecureBypassCode !== undefined && constantTimeEqual(code, settings.insecureBypassCode)) return { authenticator: totp, secret: '', step: null };
  // A code of another length cannot match: spare the decryption.
  if (code.length !== settings.digits) return null;
  const secret = deps.atRest.open(totp.sealedSecret, sealContext('totp', totp.userId));
  const step = secret === null ? null : matchTotp(secret, code, now, settings);
  if (step === null || (totp.lastCounter !== null && step <= totp.lastCounter)) return null;
  return { authenticator: totp, secret: secret!, step };
}

/** An unused recovery code. */
function matchRecoveryCode(deps: Deps, codes: RecoveryCodesAuthenticator, code: string): CodeMatch | null {
  const { count, digits } = deps.config.mfa.recoveryCodes;
  if (code.length !== digits) return null;
  const seed = deps.atRest.open(codes.sealedSeed, sealContext('recovery_codes', codes.userId));
  if (seed === null) return null;
  let index = -1;
  // Every code is compared, so the time taken does not tell which matched.
  deriveRecoveryCodes(seed, count, digits).forEach((candidate, i) => {
    if (constantTimeEqual(code, candidate) && !isUsed(codes.usedMask, i)) index = i;
  });
  return index < 0 ? null : { authenticator: codes, seed, index };
}

/**
 * Which of the user's second factors `code` belongs to (their TOTP, then
 * their recovery codes), read-only: a wrong code costs no write.
 */
export async function matchCode(deps: Deps, conn: Conn, userId: number, code: string, now: number): Promise<CodeMatch | null> {
  // Typed by hand: spaces and dashes are ignored.
  const typed = normalizeCode(code);
  if (typed === '') return null;
  const authenticators = await listAuthenticators(conn, userId);
  const totp = authenticators.find((a): a is TotpAuthenticator => a.type === 'totp');
  const totpMatch = totp ? matchTotpCode(deps, totp, typed, now) : null;
  if (totpMatch) return totpMatch;
  const codes = authenticators.find((a): a is RecoveryCodesAuthenticator => a.type === 'recovery_codes');
  return codes ? matchRecoveryCode(deps, codes, typed) : null;
}

/**
 * Spends a matched code: the TOTP counter moves to its step, or the
 * recovery code's bit is set, each only if no other request did so first.
 * A secret sealed under an older SECRET_KEY is sealed anew on the way.
 */
export async function spendMatch(deps: Deps, conn: Conn, match: CodeMatch, now: number): Promise<boolean> {
  if ('step' in match) {
    const totp = match.authenticator;
    if (match.step === null) return true;
    if (!(await advanceTotpCounter(conn, totp.id, match.step, now))) return false;
    await resealIfStale(deps, conn, totp.id, totp.sealedSecret, match.secret, sealContext('totp', totp.userId));
    return true;
  }
  const codes = match.authenticator;
  if (!(await spendRecoveryCode(conn, codes.id, match.index, now))) return false;
  await resealIfStale(deps, conn, codes.id, codes.sealedSeed, match.seed, sealContext('recovery_codes', codes.userId));
  return true;
}

/** After a SECRET_KEY rotation a secret is sealed anew under the current key the first time it is used. */
async function resealIfStale(deps: Deps, conn: Conn, id: number, sealed: string, plain: string, context: string): Promise<void> {
  if (deps.atRest.isStale(sealed)) await resealSecret(conn, id, sealed, deps.atRest.seal(plain, context));
}

/** Matches and spends `code`: the authenticator it belonged to, or null. */
export async function spendCode(deps: Deps, conn: Conn, userId: number, code: string, now: number): Promise<TotpAuthenticator | RecoveryCodesAuthenticator | null> {
  const match = await matchCode(deps, conn, userId, code, now);
  return match && (await spendMatch(deps, conn, match, now)) ? match.authenticator : null;
}

export type Limited<T> = { ok: true; value: T } | { ok: false; locked: boolean };

/**
 * Runs a second-factor check under the login_failed limit, as the reference
 * does: per IP, and per user (in a key space of its own, which no typed
 * username can reach); with no user (a passkey nobody registered), per IP
 * only. See RateLimiter.guarded: parallel guesses cannot overshoot, and a
 * success gives its own point back and clears the user's counter, as a
 * right password does. (The reference clears the IP's whole
 * window, which would let one account's success reset the count of guesses
 * made at others from the same address.)
 */
export async function underFailedLoginLimit<T>(deps: Deps, ctx: RequestContext, userId: number | null, check: () => Promise<T | null>): Promise<Limited<T>> {
  const subject = { ip: ctx.ip, key: userId === null ? null : String(userId), keySpace: 'second_factor' } as const;
  const attempt = await deps.limiter.guarded('login_failed', subject, async () => {
    const value = await check();
    return { succeeded: value !== null, value };
  });
  if (!attempt.ok) return { ok: false, locked: true };
  return attempt.value === null ? { ok: false, locked: false } : { ok: true, value: attempt.value };
}
