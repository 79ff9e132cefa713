import { Type } from 'typebox';
import { endSessions, listSessions } from '../../../flows/account/user-sessions.js';
import { deleteAccount } from '../../../flows/account/account-deletion.js';
import { changeProfile, profile } from '../../../flows/account/profile.js';
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

// Names and custom profile fields: a value of a field declared in ACCOUNT_PROFILE_SCHEMA.
// A type list rather than anyOf: the serializer then needs no validation pass (requests are validated with anyOf: ajv's strict mode refuses type lists).
const FieldValue = Type.Unsafe<string | number | boolean>({ type: ['string', 'number', 'boolean'] });
const Profile = Type.Object({
  status: Type.Integer(),
  data: Type.Object(
    { first_name: Type.String(), last_name: Type.String() },
    { additionalProperties: FieldValue, description: 'The names ("" when none) and each ACCOUNT_PROFILE_SCHEMA field the user has a value for, under its name.' },
  ),
});
const ProfileChange = Type.Object(
  {
    first_name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'At most 150 characters; null or "" clears it (refused when ACCOUNT_SIGNUP_FIELDS has first_name*).' })),
    last_name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'As first_name.' })),
  },
  { additionalProperties: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), description: 'Any of the names and ACCOUNT_PROFILE_SCHEMA fields; those left out stay as they are, null or "" clears one.' },
);

const PROFILE_DOC = 'Not part of the django-allauth API.';

export const profileEndpoints = [
  endpoint({
    method: 'GET',
    path: '/account/profile',
    tags: ['Account: Profile'],
    summary: 'The user\'s names and profile fields',
    description: `${PROFILE_DOC} first_name and last_name (as in Django's auth_user) and the fields the deployment declares in ACCOUNT_PROFILE_SCHEMA. 401 when not logged in.`,
    response: { 200: Profile, 401: authRef, 410: authRef },
    run: (_deps, ctx) => profile(ctx),
  }),
  endpoint({
    method: 'PATCH',
    path: '/account/profile',
    tags: ['Account: Profile'],
    summary: 'Change the user\'s names and profile fields',
    description: `${PROFILE_DOC} Sets the names and fields given, checked against ACCOUNT_PROFILE_SCHEMA; 200 with the whole profile. Nothing else of the account can be changed here: any other key is refused. Records \`profile.changed\` when something changed. Errors (param: the field): \`required\` (a required field cleared), \`invalid\` (wrong type, no match for the pattern, or a key that is no field), \`invalid_choice\` (not among the enum), \`max_length\`, \`min_length\`, \`max_value\`, \`min_value\`. 401 when not logged in.`,
    body: ProfileChange,
    response: { 200: Profile, 400: errorRef, 401: authRef, 410: authRef },
    run: (deps, ctx, { body }) => changeProfile(deps, ctx, body as Record<string, unknown>),
  }),
];
