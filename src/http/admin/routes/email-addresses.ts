import { Type } from 'typebox';
import * as admin from '../../../flows/admin/email-addresses.js';
import { created, invalidInput, ok, refused, userEndpoint, type AdminAnswer } from '../endpoint.js';
import { addressView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id, UserParams } from './common.js';

// flows/admin/email-addresses.ts: a user's addresses.

const tags = ['Email addresses'];
const AddressParams = Type.Object({ id: Id, email: Type.String({ minLength: 1, maxLength: 254 }) });

/** A refusal of the address flows: 404 when the address went meanwhile, else 400. */
function refusedAddress(error: Extract<admin.AddressResult, { ok: false }>['error']): AdminAnswer {
  return error.code === 'not_found' ? refused(404, 'not_found', 'email') : invalidInput([error]);
}

export const emailAddresses = [
  userEndpoint({
    method: 'GET',
    path: '/users/:id/email-addresses',
    tags,
    summary: "A user's addresses",
    description: `Primary first. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    response: responses({ 200: envelope(Type.Array(Type.Ref('AdminEmailAddress'))) }),
    run: async (deps, _call, _input, user) => ok((await admin.addressesOf(deps, user.id)).map(addressView)),
  }),
  userEndpoint({
    method: 'POST',
    path: '/users/:id/email-addresses',
    tags,
    summary: 'Add an address',
    description: `Verified or not; primary when asked or when it is the user's first. 201. Records \`email.added\` (and \`email.verified\`, \`email.primary_changed\`). Errors: 400 \`invalid\`, \`email_taken\` (another user has it), \`duplicate_email\` (this user has it); 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }), verified: Type.Optional(Type.Boolean()), primary: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    run: async (deps, call, { body }, user) => {
      const { email, verified = false, primary = false } = body;
      const result = await admin.addAddress(deps, call.source(), user, { email, verified, primary });
      return result.ok ? created(addressView(result.value)) : refusedAddress(result.error);
    },
  }),
  userEndpoint({
    method: 'PATCH',
    path: '/users/:id/email-addresses/:email',
    tags,
    summary: 'Verify an address or make it primary',
    description: `\`verified: true\` marks it verified (\`email.verified\`), \`primary: true\` makes it the primary one (\`email.primary_changed\`). 404 \`not_found\` (no such user, or not their address). ${COMMON_ERRORS}`,
    params: AddressParams,
    body: Type.Object({ verified: Type.Optional(Type.Literal(true)), primary: Type.Optional(Type.Literal(true)) }, { additionalProperties: false }),
    run: async (deps, call, { params, body }, user) => {
      const address = await admin.addressOfUser(deps, user.id, params.email);
      if (!address) return refused(404, 'not_found', 'email');
      const source = call.source();
      if (body?.verified) await admin.verifyAddress(deps, source, address.email);
      if (body?.primary) await admin.makePrimary(deps, source, address.email);
      return ok(addressView((await admin.addressOfUser(deps, user.id, address.email)) ?? address));
    },
  }),
  userEndpoint({
    method: 'DELETE',
    path: '/users/:id/email-addresses/:email',
    tags,
    summary: 'Remove an address',
    description: `A primary address only when it is the user's last. Records \`email.removed\`. Errors: 400 \`cannot_remove_primary_email\`; 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: AddressParams,
    run: async (deps, call, { params }, user) => {
      const address = await admin.addressOfUser(deps, user.id, params.email);
      if (!address) return refused(404, 'not_found', 'email');
      const result = await admin.removeAddress(deps, call.source(), address.email);
      return result.ok ? ok({ ...addressView(result.value), removed: true }) : refusedAddress(result.error);
    },
  }),
];
