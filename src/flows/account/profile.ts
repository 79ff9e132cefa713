import type { Deps, RequestContext } from '../context.js';
import { invalid, notAuthenticated, type Outcome } from '../outcome.js';
import { findUserById } from '../../store/users.js';
import { checkProfile, requiredNames } from './profile-fields.js';
import { saveProfileChange } from './profile-change.js';

// GET|PATCH /account/profile (beyond the reference): the signed-in user's
// names and custom profile fields, to read and change. Only those: the
// body's other keys are refused, so nothing else of the account (its
// identifiers, verification, active state, admin role) is reachable here.

export function profile(ctx: RequestContext): Outcome {
  if (!ctx.user) return notAuthenticated;
  return { kind: 'profile', user: ctx.user };
}

export async function changeProfile(deps: Deps, ctx: RequestContext, body: Record<string, unknown>): Promise<Outcome> {
  const user = ctx.user;
  if (!user) return notAuthenticated;
  const checked = checkProfile(deps.config, body, user.profile, { signup: false, requiredNames: requiredNames(deps.config) });
  if (!checked.ok) return invalid(...checked.errors);
  const changed = await saveProfileChange(deps, ctx, user, checked.change);
  if (changed.length === 0) return { kind: 'profile', user };
  return { kind: 'profile', user: (await findUserById(deps.db, user.id)) ?? user };
}
