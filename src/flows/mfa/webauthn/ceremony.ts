import type { Deps, RequestContext } from '../../context.js';
import type { Session } from '../../../domain/session.js';
import type { AuthState, WebAuthnOptions } from '../../outcome.js';
import { findChallenge, putChallenge, type Challenge, type ChallengePurpose } from '../../../store/mfa-challenges.js';
import { insertSession } from '../../../store/sessions.js';
import { randomKey, sessionKeyDigest } from '../../../security/secrets.js';

// A WebAuthn ceremony spans two requests: the options (with a challenge)
// and the browser's answer. The hash of the challenge waits in the session,
// one per purpose; a new one replaces it, and the answer takes it away.

/** Keeps the challenge for the session's next answer of this purpose. */
export async function holdChallenge(
  deps: Deps,
  ctx: RequestContext,
  session: Session,
  purpose: ChallengePurpose,
  challengeHash: string,
  userId: number | null,
  data: Record<string, unknown> = {},
): Promise<void> {
  const expiresAt = ctx.now + deps.config.mfa.webauthn.timeout;
  await putChallenge(deps.db, { sessionId: session.id, purpose, userId, value: challengeHash, data, expiresAt });
}

/** The session's live challenge of this purpose, if it was issued for `userId` (null: for no one yet). */
export async function heldChallenge(deps: Deps, ctx: RequestContext, purpose: ChallengePurpose, userId: number | null): Promise<Challenge | null> {
  if (!ctx.session) return null;
  const challenge = await findChallenge(deps.db, ctx.session.id, purpose, ctx.now);
  return challenge && challenge.userId === userId ? challenge : null;
}

/**
 * A session to hold a visitor's challenge (passkey login before anyone
 * logged in): the caller's own, or a new anonymous one that lives only as
 * long as the ceremony may take; logging in extends it.
 */
export async function visitorSession(deps: Deps, ctx: RequestContext): Promise<{ session: Session; state?: AuthState }> {
  if (ctx.session) return { session: ctx.session };
  const key = randomKey();
  const session = await insertSession(deps.db, {
    keyDigest: sessionKeyDigest(key),
    userId: null,
    methods: [],
    flow: null,
    now: ctx.now,
    expiresAt: ctx.now + deps.config.account.loginTimeout * 1000,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
  return { session, state: { session, user: null, newSessionKey: key } };
}

export const creation = (publicKey: object): WebAuthnOptions => ({ creation_options: { publicKey } });
export const request = (publicKey: object): WebAuthnOptions => ({ request_options: { publicKey } });
