import { Type } from 'typebox';
import * as admin from '../../../flows/admin/phones.js';
import { invalidInput, ok, refused, userEndpoint } from '../endpoint.js';
import { phoneView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, UserParams } from './common.js';

// flows/admin/phones.ts: a user's phone number.

const tags = ['Phone numbers'];

export const phones = [
  userEndpoint({
    method: 'GET',
    path: '/users/:id/phone',
    tags,
    summary: "A user's phone number",
    description: `\`data\` is null when they have none. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    response: responses({ 200: envelope(Type.Union([Type.Ref('AdminPhoneNumber'), Type.Null()])) }),
    run: async (deps, _call, _input, user) => {
      const phone = await admin.phoneOf(deps, user.id);
      return ok(phone ? phoneView(phone) : null);
    },
  }),
  userEndpoint({
    method: 'PUT',
    path: '/users/:id/phone',
    tags,
    summary: "Set a user's phone number",
    description: `In international format, verified or not, replacing any other. Records \`phone.changed\` (and \`phone.verified\`). Errors: 400 \`invalid\`, \`phone_taken\`; 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    body: Type.Object({ phone: Type.String({ minLength: 1, maxLength: 32 }), verified: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    run: async (deps, call, { body }, user) => {
      const result = await admin.setPhone(deps, call.source(), user, { phone: body.phone, verified: body.verified ?? false });
      return result.ok ? ok(phoneView(result.phone)) : invalidInput([result.error]);
    },
  }),
  userEndpoint({
    method: 'DELETE',
    path: '/users/:id/phone',
    tags,
    summary: "Remove a user's phone number",
    description: `Records \`phone.removed\`. 404 \`not_found\` (no such user, or no number). ${COMMON_ERRORS}`,
    params: UserParams,
    run: async (deps, call, _input, user) => {
      const removed = await admin.removePhone(deps, call.source(), user);
      return removed ? ok({ ...phoneView(removed), removed: true }) : refused(404, 'not_found', 'phone');
    },
  }),
];
