import { Type } from 'typebox';
import { liveSessionsOf, revokeSessions } from '../../../flows/admin/sessions.js';
import { ok, refused, userEndpoint } from '../endpoint.js';
import { sessionView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id, UserParams } from './common.js';

// flows/admin/sessions.ts: a user's live sessions, and revoking them.

const tags = ['Sessions'];

export const sessions = [
  userEndpoint({
    method: 'GET',
    path: '/users/:id/sessions',
    tags,
    summary: "A user's live sessions",
    description: `Oldest first, with device (user agent, IP) and last use. In the console, \`current\` marks the session the console is signed in with. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    response: responses({ 200: envelope(Type.Array(Type.Ref('AdminSession'))) }),
    run: async (deps, call, _input, user) => ok((await liveSessionsOf(deps, user.id, deps.clock.now())).map((s) => sessionView(s, call.sessionId))),
  }),
  userEndpoint({
    method: 'DELETE',
    path: '/users/:id/sessions',
    tags,
    summary: "Revoke all of a user's sessions",
    description: `Cookies, session tokens and refresh tokens stop working at once. Records \`session.revoked\`. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    run: async (deps, call, _input, user) => {
      const result = await revokeSessions(deps, call.source(), user.id, 'all');
      return ok({ sessions_ended: result.ok ? result.ended : 0 });
    },
  }),
  userEndpoint({
    method: 'DELETE',
    path: '/users/:id/sessions/:session',
    tags,
    summary: 'Revoke one session',
    description: `Records \`session.revoked\`. 404 \`not_found\` (no such user, or not a live session of theirs). ${COMMON_ERRORS}`,
    params: Type.Object({ id: Id, session: Id }),
    run: async (deps, call, { params }, user) => {
      const result = await revokeSessions(deps, call.source(), user.id, [Number(params.session)]);
      return result.ok ? ok({ sessions_ended: result.ended }) : refused(404, 'not_found', 'session');
    },
  }),
];
