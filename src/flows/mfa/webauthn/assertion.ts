import type { Deps } from '../../context.js';
import type { Conn } from '../../../store/db.js';
import type { WebAuthnAuthenticator } from '../../../domain/authenticator.js';
import { takeChallenge, type Challenge } from '../../../store/mfa-challenges.js';
import { findWebAuthnByCredentialId, recordWebAuthnUse } from '../../../store/mfa-authenticators.js';
import { assertedCredentialId, verifyAssertion } from './relying-party.js';

/**
 * Checks an assertion made with one of `userId`'s keys against the held
 * challenge and records the use: the challenge is taken and the signature
 * counter moves on, each conditionally, so one assertion is good for one
 * request. Run it in a transaction that the caller rolls back on null.
 */
export async function useKey(
  deps: Deps,
  conn: Conn,
  challenge: Challenge,
  credential: Record<string, unknown>,
  userId: number,
  opts: { requireUserVerification: boolean; now: number },
): Promise<WebAuthnAuthenticator | null> {
  const id = assertedCredentialId(credential);
  const key = id === null ? null : await findWebAuthnByCredentialId(conn, id);
  if (!key || key.userId !== userId) return null;
  const counter = await verifyAssertion(deps, credential, challenge.value, key, opts.requireUserVerification);
  if (counter === null) return null;
  if (!(await takeChallenge(conn, challenge))) return null;
  return (await recordWebAuthnUse(conn, key.id, key.signCount, counter, opts.now)) ? key : null;
}
