import type { Deps, RequestContext } from '../context.js';
import { invalid, notAuthenticated, type Outcome } from '../outcome.js';
import { msg } from '../../i18n/message.js';
import { deleteUserSessionsById, listUserSessions } from '../../store/sessions.js';
import { recordEvent } from '../../audit/recorder.js';

// GET|DELETE /auth/sessions: the signed-in user's sessions, to review and end.

export async function listSessions(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  if (!ctx.user || !ctx.session) return notAuthenticated;
  return { kind: 'session_list', sessions: await listUserSessions(deps.db, ctx.user.id, ctx.now), currentId: ctx.session.id };
}

/** Ends the given sessions; ending the current one is a logout. */
export async function endSessions(deps: Deps, ctx: RequestContext, ids: number[]): Promise<Outcome> {
  const { user, session } = ctx;
  if (!user || !session) return notAuthenticated;
  if (ids.length === 0) return invalid({ code: 'required', param: 'sessions' });
  const own = new Set((await listUserSessions(deps.db, user.id, ctx.now)).map((s) => s.id));
  const unknown = ids.find((id) => !own.has(id));
  if (unknown !== undefined) return invalid({ code: 'invalid_choice', param: 'sessions', message: msg('invalid_choice.value', { value: unknown }) });
  const ending = [...new Set(ids)];
  await deps.db.transaction().execute(async (tx) => {
    await deleteUserSessionsById(tx, user.id, ending);
    await recordEvent(deps, tx, ctx, 'session.revoked', { userId: user.id, detail: { sessions: ending.length }, endedSessions: ending });
  });
  if (ids.includes(session.id)) return { kind: 'auth', session: null, user: null, sessionEnded: true };
  return listSessions(deps, ctx);
}
