import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod, Session } from '../../domain/session.js';
import type { Outcome } from '../outcome.js';
import { authenticatorTypes, findAuthenticator } from '../../store/mfa-authenticators.js';
import { updateSessionState } from '../../store/sessions.js';
import { nowSeconds } from '../session-ops.js';

// The admin console asks every administrator for a second factor. One who
// has none yet (the first admin, made with `users set-admin`) signs in with
// the password alone and gets a session that may only enrol one; the factor
// then counts as this session's second factor, because enrolling proved
// possession of it (a current TOTP code of the new secret, an attestation of
// the new key) after the password proved the first. Signing in again with it
// would prove nothing more: whoever enrolled it holds it.

export type ConsoleAccess =
  /** Signed in with a second factor (a passkey login is both factors at once). */
  | 'full'
  /** Signed in with a password only, and the account has no second factor yet: enrolment only. */
  | 'enrol'
  /** Signed in without a second factor although the account has one now: sign in again with it. */
  | 'second_factor';

/** Whether the session's login passed a second factor. */
export const passedSecondFactor = (session: Session): boolean => session.methods.some((m) => m.method === 'mfa');

/** TOTP or a security key: what a login asks for (recovery codes only back them up). */
async function hasSecondFactor(deps: Deps, userId: number): Promise<boolean> {
  const types = await authenticatorTypes(deps.db, userId);
  return types.includes('totp') || types.includes('webauthn');
}

/** Whether a second factor can be set up here at all (MFA_ENABLED, TOTP or WebAuthn supported). */
export function canEnrol(deps: Deps): boolean {
  const { mfa } = deps.config;
  return mfa.enabled && (mfa.supportedTypes.includes('totp') || mfa.supportedTypes.includes('webauthn'));
}

/** What a signed-in administrator's console session may do. */
export async function consoleAccess(deps: Deps, session: Session, userId: number): Promise<ConsoleAccess> {
  if (passedSecondFactor(session)) return 'full';
  if (canEnrol(deps) && !(await hasSecondFactor(deps, userId))) return 'enrol';
  return 'second_factor';
}

/**
 * Runs an enrolment (TOTP activation, adding a key) for the console; when it
 * adds the account's first second factor to a session without one, the
 * session records it as the factor of its login ({method: "mfa"}, now). A
 * session that already passed one, or an account that had one before (added
 * elsewhere meanwhile), gains nothing: a password-only session must not turn
 * into a full one by adding a second key beside someone's first.
 */
export async function enrolForConsole(deps: Deps, ctx: RequestContext, enrol: () => Promise<Outcome>): Promise<Outcome> {
  const { session, user } = ctx;
  const counts = session !== null && user !== null && !passedSecondFactor(session) && !(await hasSecondFactor(deps, user.id));
  const outcome = await enrol();
  if (!counts || outcome.kind !== 'authenticator') return outcome;
  const info = outcome.authenticator;
  const id = info.webauthn?.id ?? (await findAuthenticator(deps.db, user.id, 'totp'))?.id;
  if (id === undefined || (info.type !== 'totp' && info.type !== 'webauthn')) return outcome;
  const method: AuthMethod = { method: 'mfa', at: nowSeconds(ctx.now), id, type: info.type };
  await updateSessionState(deps.db, session.id, { userId: session.userId, methods: [...session.methods, method], flow: session.flow });
  return outcome;
}
