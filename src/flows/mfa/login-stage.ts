import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod, LoginStageFlow } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import type { Conn } from '../../store/db.js';
import { authenticatorTypes } from '../../store/mfa-authenticators.js';
import { isTrustedBrowser } from './trust.js';

// The stages every login passes after its first factor (and after email or
// phone verification), in the reference's order: the second factor, then,
// for a passkey signup, registering the passkey. logIn (session-ops.ts), the
// one place every first factor ends, asks here before it logs anyone in.

/** A passkey login is both factors at once. */
function passwordless(method: AuthMethod): boolean {
  return method.method === 'mfa' && method.type === 'webauthn' && method.passwordless === true;
}

/** The stage `user`'s login must pass before it completes, or null when none applies. */
export async function loginStage(
  deps: Deps,
  ctx: RequestContext,
  conn: Conn,
  user: User,
  methods: AuthMethod[],
  passkeySignup: boolean,
): Promise<LoginStageFlow | null> {
  const { mfa, account } = deps.config;
  if (!mfa.enabled) return null;
  const expiresAt = ctx.now + account.loginTimeout * 1000;
  if (!methods.some(passwordless)) {
    const types = await authenticatorTypes(conn, user.id);
    // Recovery codes alone never ask: they back up a TOTP or WebAuthn authenticator.
    if ((types.includes('totp') || types.includes('webauthn')) && !(await isTrustedBrowser(deps, ctx, conn, user))) {
      return { id: 'mfa_authenticate', userId: user.id, methods, types, expiresAt };
    }
  }
  if (passkeySignup && mfa.passkeySignup) return { id: 'mfa_signup_webauthn', userId: user.id, methods, expiresAt };
  return null;
}
