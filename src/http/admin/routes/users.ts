import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import * as admin from '../../../flows/admin/users.js';
import { parsePhone } from '../../../flows/phone/phone-number.js';
import { normalizeEmail } from '../../../flows/validate.js';
import { adminEndpoint, created, invalidInput, ok, refused, userEndpoint, type AdminCall } from '../endpoint.js';
import { userDetailsView, userView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Limit, limitOf, UserParams } from './common.js';
import { decodeUserCursor, encodeUserCursor } from './user-cursor.js';
import { invitationsPossible, sendAccountInvitation, type InvitationResult } from '../../../flows/admin/invitation.js';

// flows/admin/users.ts: finding, creating, changing and deleting users, their password.

const tags = ['Users'];

const ListQuery = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Users having this address (any of theirs, exact, case-insensitive).' })),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 150, description: 'The user with this username (exact, case-insensitive).' })),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'The user with this phone number (international format).' })),
    id: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'The user with this id.' })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Part of a username or address, case-insensitive (reads every user: for people searching, not for scripts on large databases).' })),
    active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    admin: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    verified: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: users with a verified address (any of theirs); false: users with none.' })),
    order: Type.Optional(
      Type.Union(
        admin.USER_ORDERS.map((o) => Type.Literal(o)),
        { description: 'The order, `-` for descending: `id` (the default), `created_at` (when they joined), `last_login_at` (never logged in counts as longest ago). Each pages on an index, as fast deep in the list as on its first page.' },
      ),
    ),
    include_total: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: '`true`: `meta.total`, how many users match the filters. Exact, so it reads every matching user: tens of milliseconds at 200,000 users, growing with the table. Ask on the pages that show it.' })),
    profile_field: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'With profile_value: users whose ACCOUNT_PROFILE_SCHEMA field has this value.' })),
    profile_value: Type.Optional(Type.String({ maxLength: 255, description: 'The value of profile_field, exact (text case-insensitively; numbers and true/false as written). Indexed: as fast on millions of users as on a few.' })),
    limit: Limit,
    cursor: Type.Optional(Type.String({ maxLength: 128, description: '`meta.next_cursor` or `meta.prev_cursor` of a page in the same order.' })),
  },
  { additionalProperties: false },
);

/** A page of users: the cursors on either side, and the count when asked for. */
const UserPage = Type.Object({
  status: Type.Integer(),
  data: Type.Array(Type.Ref('AdminUser')),
  meta: Type.Object({
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass back as `cursor` for the next page; null on the last.' }),
    prev_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass back as `cursor` for the page before; null on the first.' }),
    total: Type.Optional(Type.Integer({ description: 'With `include_total=true`: how many users match the filters.' })),
  }),
});

const CreateBody = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 254 })),
    username: Type.Optional(Type.String({ maxLength: 150 })),
    first_name: Type.Optional(Type.String({ description: 'At most 150 characters.' })),
    last_name: Type.Optional(Type.String({ description: 'As first_name.' })),
    password: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()], { description: 'Omitted or null: no password (send a reset link or an invitation, or the user logs in otherwise).' })),
    email_verified: Type.Optional(Type.Boolean({ description: 'The address counts as verified (default false).' })),
    invite: Type.Optional(Type.Boolean({ description: 'Mail the address an invitation: a link to choose a password (a password reset key, verifying the address when used). Needs `email` and no `password`.' })),
  },
  { additionalProperties: false },
);

const Created = Type.Object({
  status: Type.Integer(),
  data: Type.Ref('AdminUserDetails'),
  meta: Type.Optional(Type.Object({ invitation: Type.Union([Type.Literal('sent'), Type.Literal('failed')], { description: 'With `invite`: whether the mail went out (failed: the user exists; send it again with POST /users/{id}/invitation).' }) })),
});

const UpdateBody = Type.Object(
  {
    username: Type.Optional(Type.Union([Type.String({ maxLength: 150 }), Type.Null()], { description: 'A new username; null or "" removes it.' })),
    is_active: Type.Optional(Type.Boolean({ description: 'false disables login and ends every session at once.' })),
    is_admin: Type.Optional(Type.Boolean({ description: 'Grants (true) or takes (false) the admin role: the console, behind a second factor.' })),
    first_name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'At most 150 characters; null or "" clears it.' })),
    last_name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'As first_name.' })),
    profile: Type.Optional(
      Type.Object({}, { additionalProperties: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), description: 'ACCOUNT_PROFILE_SCHEMA fields to set; null or "" clears one; those left out stay.' }),
    ),
  },
  { additionalProperties: false },
);

const PasswordBody = Type.Object(
  {
    password: Type.String({ minLength: 1, maxLength: 4096 }),
    keep_sessions: Type.Optional(Type.Boolean({ description: 'Leave the user logged in where they are (default: every session ends, as after a reset).' })),
  },
  { additionalProperties: false },
);

/** The console's one active administrator, about to disable or delete their own account. */
async function lockingThemselvesOut(deps: Deps, call: AdminCall, userId: number): Promise<boolean> {
  return call.userId === userId && (await admin.isSoleActiveAdmin(deps, userId));
}

/** A user with their addresses and phone number, as the answers show them; null when gone. */
async function details(deps: Deps, id: number) {
  const found = await admin.userDetails(deps, id);
  return found && userDetailsView(found);
}

/** The cursors of a page: after its last user and before its first, when there is a page that way. */
function pageCursors(order: admin.UserOrder, position: admin.UserPosition | undefined, page: admin.UserPage) {
  const first = page.users[0];
  const last = page.users.at(-1);
  const backward = position?.backward ?? false;
  // Going forward, a page after this one exists when more were read; one before it when we came from there (and the other way round going back).
  const hasNext = backward ? position !== undefined : page.more;
  const hasPrev = backward ? page.more : position !== undefined;
  return {
    next_cursor: hasNext && last ? encodeUserCursor(order, { key: admin.sortKeyOf(order, last), id: last.id, backward: false }) : null,
    prev_cursor: hasPrev && first ? encodeUserCursor(order, { key: admin.sortKeyOf(order, first), id: first.id, backward: true }) : null,
  };
}

/** Sends a new user's invitation; a mail that cannot go out leaves the user made, and says so. */
async function invitationOf(deps: Deps, call: AdminCall, userId: number): Promise<'sent' | 'failed'> {
  const user = await admin.userById(deps, userId);
  try {
    const sent = user && (await sendAccountInvitation(deps, call.source(), user));
    return sent && sent.ok ? 'sent' : 'failed';
  } catch (error) {
    call.log.warn({ err: error }, 'invitation not sent');
    return 'failed';
  }
}

export const users = [
  adminEndpoint({
    method: 'GET',
    path: '/users',
    tags,
    summary: 'Find users, a page at a time',
    description: `Users in \`order\` (by id unless told), \`limit\` at a time; \`meta.next_cursor\` (null on the last page) fetches the next page and \`meta.prev_cursor\` (null on the first) the one before. Paging is by keyset (the sort key and id of the last user shown), on an index for each order, so it is as fast deep in a million users as on the first page, and users created meanwhile never make another user appear twice or go missing. Filters combine; \`q\` also matches part of a first or last name, and \`profile_field\` with \`profile_value\` finds users by a custom profile field. \`include_total=true\` adds \`meta.total\`. Errors: 400 \`invalid\` (param cursor: not one of this order's, phone, profile_field: not a field of ACCOUNT_PROFILE_SCHEMA, or profile_value: not of the field's type), \`required\` (profile_field or profile_value without the other). ${COMMON_ERRORS}`,
    querystring: ListQuery,
    response: responses({ 200: UserPage }),
    run: async (deps, _call, { query }) => {
      const order = query.order ?? 'id';
      const position = query.cursor === undefined ? undefined : decodeUserCursor(order, query.cursor);
      if (position === null) return refused(400, 'invalid', 'cursor');
      let phone: string | undefined;
      if (query.phone !== undefined) {
        const parsed = parsePhone(query.phone);
        if ('error' in parsed) return invalidInput([parsed.error]);
        phone = parsed.phone;
      }
      if ((query.profile_field === undefined) !== (query.profile_value === undefined)) return refused(400, 'required', query.profile_field === undefined ? 'profile_field' : 'profile_value');
      const profile = query.profile_field === undefined ? undefined : admin.profileFilter(deps, query.profile_field, query.profile_value!);
      if (profile === null) return refused(400, 'invalid', deps.config.profile.fields.some((f) => f.name === query.profile_field) ? 'profile_value' : 'profile_field');
      const limit = limitOf(query.limit);
      const flag = (value: 'true' | 'false' | undefined) => (value === undefined ? undefined : value === 'true');
      const page = await admin.findUserPage(
        deps,
        {
          order,
          position,
          limit,
          profile,
          search: query.q,
          email: query.email === undefined ? undefined : normalizeEmail(query.email),
          username: query.username,
          phone,
          id: query.id === undefined ? undefined : Number(query.id),
          active: flag(query.active),
          admin: flag(query.admin),
          verified: flag(query.verified),
        },
        query.include_total === 'true',
      );
      return ok(page.users.map(userView), { ...pageCursors(order, position, page), ...(page.total === undefined ? {} : { total: page.total }) });
    },
  }),
  adminEndpoint({
    method: 'POST',
    path: '/users',
    tags,
    summary: 'Create a user',
    description: `With an address, a username or both, names, with or without a password, the address verified or not, under the rules of signup; \`invite\` mails the address a link to choose a password (\`meta.invitation\`: \`sent\` or \`failed\`). 201 with the user. Records \`signup\`, and \`account.invited\` when the invitation went out. Errors: 400 \`required\` (param email: neither address nor username, or \`invite\` without an address), \`invalid\` (param password: a password and \`invite\` both), \`max_length\`, \`email_taken\`, \`username_taken\`, \`username_blacklisted\`, \`password_too_short\`, \`password_too_common\`, \`password_entirely_numeric\`, \`password_too_similar\`; 409 \`password_reset_by_code\` (param invite: with reset by code there is no link to send). ${COMMON_ERRORS}`,
    body: CreateBody,
    response: responses({ 201: Created }),
    run: async (deps, call, input) => {
      const body = input.body ?? {};
      const invite = body.invite ?? false;
      if (invite && !invitationsPossible(deps)) return refused(409, 'password_reset_by_code', 'invite');
      if (invite && body.password != null) return refused(400, 'invalid', 'password');
      if (invite && !body.email?.trim()) return refused(400, 'required', 'email');
      const result = await admin.createAccount(deps, call.source(), {
        email: body.email,
        username: body.username,
        firstName: body.first_name,
        lastName: body.last_name,
        password: body.password ?? null,
        verified: body.email_verified ?? false,
      });
      if (!result.ok) return invalidInput(result.errors);
      if (!invite) return created(await details(deps, result.userId));
      const invitation = await invitationOf(deps, call, result.userId);
      return created(await details(deps, result.userId), { invitation });
    },
  }),
  userEndpoint({
    method: 'POST',
    path: '/users/:id/invitation',
    tags,
    summary: 'Mail an invitation',
    description: `To the user's primary address: a link to choose a password, as \`invite\` sends when the user is created (again, say, after the first link expired). Records \`account.invited\`. Errors: 409 \`no_email_address\`, 409 \`password_reset_by_code\` (with reset by code there is no link to send); 503 \`mail_unavailable\`; 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    run: async (deps, call, _input, user) => {
      let result: InvitationResult;
      try {
        result = await sendAccountInvitation(deps, call.source(), user);
      } catch (error) {
        call.log.warn({ err: error }, 'invitation not sent');
        return refused(503, 'mail_unavailable');
      }
      if (!result.ok) return refused(409, result.reason === 'by_code' ? 'password_reset_by_code' : 'no_email_address');
      return ok({ id: user.id, email: result.email });
    },
  }),
  adminEndpoint({
    method: 'GET',
    path: '/users/:id',
    tags,
    summary: 'Show a user',
    description: `The user with their addresses and phone number. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    response: responses({ 200: envelope(Type.Ref('AdminUserDetails')) }),
    run: async (deps, _call, { params }) => {
      const found = await details(deps, Number(params.id));
      return found ? ok(found) : refused(404, 'not_found', 'id');
    },
  }),
  userEndpoint({
    method: 'PATCH',
    path: '/users/:id',
    tags,
    summary: 'Change a user',
    description: `Username, active state, the admin role, names and custom profile fields (checked as the user's own profile endpoint checks them). Disabling ends every session at once. Records \`username.changed\`, \`account.disabled\` / \`account.enabled\`, \`admin.granted\` / \`admin.revoked\`, \`profile.changed\` (only for what changed). Errors: 400 \`username_taken\`, \`invalid\`, \`max_length\`, \`username_blacklisted\`; for names and profile fields (param first_name, last_name or profile.<field>) \`required\`, \`invalid\`, \`invalid_choice\`, \`max_length\`, \`min_length\`, \`max_value\`, \`min_value\`; 404 \`not_found\`; 409 \`last_admin\` (param is_active or is_admin) when the console's only active administrator disables themselves or gives up the role. ${COMMON_ERRORS}`,
    params: UserParams,
    body: UpdateBody,
    response: responses({ 200: envelope(Type.Ref('AdminUserDetails')) }),
    run: async (deps, call, input, user) => {
      const body = input.body ?? {};
      if (body.is_active === false && (await lockingThemselvesOut(deps, call, user.id))) return refused(409, 'last_admin', 'is_active');
      if (body.is_admin === false && (await lockingThemselvesOut(deps, call, user.id))) return refused(409, 'last_admin', 'is_admin');
      if (body.first_name !== undefined || body.last_name !== undefined || body.profile !== undefined) {
        // Checked before anything else changes, so that a refused profile leaves the rest of the request undone too.
        const edit: admin.ProfileEdit = { first_name: body.first_name, last_name: body.last_name, profile: body.profile as Record<string, unknown> | undefined };
        const changed = await admin.changeProfile(deps, call.source(), user, edit);
        if (!changed.ok) return invalidInput(changed.errors);
      }
      if (body.username !== undefined) {
        const changed = await admin.changeUsername(deps, call.source(), user, body.username);
        if (!changed.ok) return invalidInput(changed.errors);
      }
      if (body.is_active !== undefined && body.is_active !== user.isActive) await admin.setActive(deps, call.source(), user, body.is_active);
      if (body.is_admin !== undefined) await admin.setAdmin(deps, call.source(), user, body.is_admin);
      return ok(await details(deps, user.id));
    },
  }),
  userEndpoint({
    method: 'DELETE',
    path: '/users/:id',
    tags,
    summary: 'Delete a user',
    description: `For good, with addresses, sessions and authenticators. Records \`account.deleted\`. 404 \`not_found\`; 409 \`last_admin\` when the console's only active administrator deletes themselves. ${COMMON_ERRORS}`,
    params: UserParams,
    run: async (deps, call, _input, user) => {
      if (await lockingThemselvesOut(deps, call, user.id)) return refused(409, 'last_admin', 'id');
      return (await admin.deleteAccount(deps, call.source(), user)) ? ok({ id: user.id, deleted: true }) : refused(404, 'not_found', 'id');
    },
  }),
  userEndpoint({
    method: 'POST',
    path: '/users/:id/password',
    tags,
    summary: "Set a user's password",
    description: `Under the password rules. Like a reset, ends the user's sessions (unless \`keep_sessions\`) and voids reset links issued before. Records \`password.changed\`. Errors: 400 \`password_too_short\`, \`password_too_common\`, \`password_entirely_numeric\`, \`password_too_similar\`; 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    body: PasswordBody,
    run: async (deps, call, { body }, user) => {
      const result = await admin.setPassword(deps, call.source(), user, body.password, body.keep_sessions ?? false);
      return result.ok ? ok({ id: user.id, sessions_ended: result.ended }) : invalidInput(result.errors);
    },
  }),
  userEndpoint({
    method: 'POST',
    path: '/users/:id/password-reset',
    tags,
    summary: 'Mail a password reset link',
    description: `To the user's primary address, as if they had asked for it. Records \`password.reset_requested\`. Errors: 409 \`no_email_address\`, 409 \`password_reset_by_code\` (reset is by code: the user must ask themselves); 503 \`mail_unavailable\`; 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    run: async (deps, call, _input, user) => {
      let result: admin.ResetLinkResult;
      try {
        result = await admin.sendResetLink(deps, call.source(), user);
      } catch (error) {
        call.log.warn({ err: error }, 'reset link not sent');
        return refused(503, 'mail_unavailable');
      }
      if (!result.ok) return refused(409, result.reason === 'by_code' ? 'password_reset_by_code' : 'no_email_address');
      return ok({ id: user.id, email: result.email });
    },
  }),
];
