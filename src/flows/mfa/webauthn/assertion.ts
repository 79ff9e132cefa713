import type { Deps } from '../../context.js';
import type { Conn } from '../../../store/db.js';
import type { WebAuthnAuthenticator } from '../../../domain/authenticator.js';
import { takeChallenge, type Challenge } from '../../../store/mfa-challenges.js';
import { allOrNothing } from '../../../store/all-or-nothing.js';
import { findWebAuthnByCredentialId, recordWebAuthnUse } from '../../../store/mfa-authenticators.js';
import { assertedCredentialId, verifyAssertion } from './relying-party.js';

/** An assertion that verified: the key it was made with and the signature counter it reported. */
export interface VerifiedUse {
  key: WebAuthnAuthenticator;
  counter: number;
}

/** Checks an assertion made with one of `userId`'s keys against the held challenge, writing nothing. */
export async function verifyKeyUse(
  deps: Deps,
  challenge: Challenge,
  credential: Record<string, unknown>,
  userId: number,
  requireUserVerification: boolean,
): Promise<VerifiedUse | null> {
  const id = assertedCredentialId(credential);
  const key = id === null ? null : await findWebAuthnByCredentialId(deps.db, id);
  if (!key || key.userId !== userId) return null;
  const counter = await verifyAssertion(deps, credential, challenge.value, key, requireUserVerification);
  return counter === null ? null : { key, counter };
}

/**
 * Records a verified use: the challenge is taken and the key's counter moves
 * from the value the check saw, each conditionally, so one assertion is good
 * for one request. Run it in the transaction of what the use completes.
 */
export async function recordKeyUse(conn: Conn, challenge: Challenge, use: VerifiedUse, now: number): Promise<boolean> {
  if (!(await takeChallenge(conn, challenge))) return false;
  return recordWebAuthnUse(conn, use.key.id, use.key.signCount, use.counter, now);
}

/** Verifies and records a use that completes nothing else (a reauthentication): the key, or null. */
export async function useKey(
  deps: Deps,
  challenge: Challenge,
  credential: Record<string, unknown>,
  userId: number,
  opts: { requireUserVerification: boolean; now: number },
): Promise<WebAuthnAuthenticator | null> {
  const use = await verifyKeyUse(deps, challenge, credential, userId, opts.requireUserVerification);
  if (!use) return null;
  return allOrNothing(deps.db, async (tx) => ((await recordKeyUse(tx, challenge, use, opts.now)) ? use.key : null));
}
