import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import { invalid, notAuthenticated, type Outcome } from '../outcome.js';
import { passwordErrors } from '../validate.js';
import { hashPassword, verifyPassword } from '../../security/passwords.js';
import { setPasswordHash } from '../../store/users.js';
import { deleteUserSessions } from '../../store/sessions.js';
import { sendNotification } from '../../messaging/notices.js';
import { addMethod, cycleKey, nowSeconds } from '../session-ops.js';
import { sendNotice } from '../notice.js';
import { recordEvent, recordFailure } from '../../audit/recorder.js';
import { revokeProviderGrants } from '../idp/grant-revocation.js';

/** POST /auth/reauthenticate: proves the password again for sensitive actions. */
export async function reauthenticate(deps: Deps, ctx: RequestContext, password: string): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const limit = await deps.limiter.consume('reauthenticate', { ip: ctx.ip, userId: user.id });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };
  const verdict = await verifyPassword(password, user.passwordHash);
  if (!verdict.ok) {
    await recordFailure(deps, ctx, 'reauthenticated', user.id, 'invalid_password', { method: 'password' });
    return invalid({ code: 'incorrect_password', param: 'password' });
  }
  const updated = await addMethod(deps, ctx, session, { method: 'password', at: nowSeconds(ctx.now), reauthenticated: true });
  return { kind: 'auth', session: updated, user };
}

/** POST /account/password/change's body. */
export const ChangePasswordInput = Type.Object({
  current_password: Type.Optional(Type.String({ description: 'Omit only when the account has no password yet.' })),
  new_password: Type.String({ minLength: 1 }),
});
export type ChangePasswordInput = Static<typeof ChangePasswordInput>;

/**
 * POST /account/password/change. Ends every other session of the user,
 * revokes their OpenID provider grants and gives this one a new key: a
 * stolen token dies with the old password, at the provider's clients too
 * (which back-channel logout has told the user is signed out anyway).
 */
export async function changePassword(deps: Deps, ctx: RequestContext, input: ChangePasswordInput): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const limit = await deps.limiter.consume('change_password', { ip: ctx.ip, userId: user.id });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };

  if (user.passwordHash) {
    if (!input.current_password) return invalid({ code: 'required', param: 'current_password' });
    const verdict = await verifyPassword(input.current_password, user.passwordHash);
    if (!verdict.ok) return invalid({ code: 'enter_current_password', param: 'current_password' });
    if (input.current_password === input.new_password) return invalid({ code: 'same_as_current', param: 'new_password' });
  }
  const errors = passwordErrors(deps.config, input.new_password, 'new_password', [user.email, user.username]);
  if (errors.length > 0) return invalid(...errors);

  const hash = await hashPassword(input.new_password);
  const newKey = await deps.db.transaction().execute(async (tx) => {
    await setPasswordHash(tx, user.id, hash, ctx.now);
    await deleteUserSessions(tx, user.id, session.id);
    await recordEvent(deps, tx, ctx, 'password.changed', { userId: user.id });
    await revokeProviderGrants(deps, tx, ctx, user.id);
    return cycleKey(deps, tx, session);
  });
  if (user.email) {
    await sendNotice(deps, sendNotification(deps, ctx, user.passwordHash ? 'account/email/password_changed' : 'account/email/password_set', user.email), 'password-changed');
  }
  return { kind: 'auth', session, user: { ...user, passwordHash: hash, passwordChangedAt: ctx.now }, newSessionKey: newKey };
}
