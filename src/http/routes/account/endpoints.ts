import { Type } from 'typebox';
import { endSessions, listSessions } from '../../../flows/account/user-sessions.js';
import { deleteAccount } from '../../../flows/account/account-deletion.js';
import { endpoint } from '../../endpoint.js';
import { authRef, errorRef } from '../../schemas.js';

// flows/account: the user's sessions, and deleting the account.

const Sessions = Type.Object({
  status: Type.Integer(),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      user_agent: Type.String(),
      ip: Type.String(),
      created_at: Type.Number({ description: 'Unix time in seconds.' }),
      last_seen_at: Type.Optional(
        Type.Number({ description: 'With USERSESSIONS_TRACK_ACTIVITY: Unix time in seconds of the last request, refreshed at most once a minute.' }),
      ),
      is_current: Type.Boolean(),
    }),
  ),
});
const EndBody = Type.Object({ sessions: Type.Array(Type.Integer(), { description: 'Ids of the sessions to end.' }) });

export const sessions = [
  endpoint({
    method: 'GET',
    path: '/auth/sessions',
    tags: ['Sessions'],
    summary: 'List sessions',
    description: 'The live sessions of the logged-in user, with the one making this request marked `is_current`. 401 when not logged in.',
    response: { 200: Sessions, 401: authRef, 410: authRef },
    run: (deps, ctx) => listSessions(deps, ctx),
  }),
  endpoint({
    method: 'DELETE',
    path: '/auth/sessions',
    tags: ['Sessions'],
    summary: 'End sessions',
    description: 'Ends the given sessions of the user: 200 with the sessions left, or 401 (logged out) when the current session was among them. Errors: `required`, `invalid_choice` (an id that is not a live session of this user), with param sessions.',
    body: EndBody,
    response: { 200: Sessions, 400: errorRef, 401: authRef, 410: authRef },
    run: (deps, ctx, { body }) => endSessions(deps, ctx, body.sessions),
  }),
];

export const deletion = endpoint({
  method: 'DELETE',
  path: '/account',
  tags: ['Account: Deletion'],
  summary: 'Delete the account',
  description:
    'Not part of the django-allauth API. Deletes the logged-in user\'s account for good: every session ends (tokens bound to them stop working), the email addresses become free for a new signup, and the deletion is recorded. Needs a recent authentication: 401 with the `reauthenticate` flow when the last one is older than ACCOUNT_REAUTHENTICATION_TIMEOUT (reauthenticate, then repeat). Success answers 401 with the flows of a signed-out visitor; 401 also when not logged in.',
  response: { 401: authRef, 410: authRef },
  run: (deps, ctx) => deleteAccount(deps, ctx),
});
