import type { Deps } from '../context.js';
import type { Session } from '../../domain/session.js';
import { hasUsablePassword, type User } from '../../domain/user.js';
import type { Outcome } from '../outcome.js';
import { authenticatorTypes } from '../../store/mfa-authenticators.js';
import { recentlyAuthenticated } from '../session-ops.js';

/**
 * Null when the session proved who it is recently enough for a sensitive
 * action; otherwise the 401 that lists the ways to prove it again: the
 * password (`reauthenticate`) if the account has one, a second factor
 * (`mfa_reauthenticate`) if it has any. An account with neither (e.g. one
 * that only logs in by code) has nothing to prove it with, and goes ahead,
 * as in the reference, unless `strict` (it must then log in again).
 */
export async function requireRecentAuthentication(deps: Deps, session: Session, user: User, now: number, opts: { strict?: boolean } = {}): Promise<Outcome | null> {
  if (recentlyAuthenticated(deps, session, now)) return null;
  const mfaTypes = deps.config.mfa.enabled ? await authenticatorTypes(deps.db, user.id) : [];
  if (!opts.strict && !hasUsablePassword(user) && mfaTypes.length === 0) return null;
  return { kind: 'reauthentication_required', mfaTypes };
}
