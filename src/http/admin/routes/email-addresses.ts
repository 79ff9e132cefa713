import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import * as admin from '../../../flows/admin/email-addresses.js';
import { refuse } from '../caller.js';
import { addressView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id, invalidInput, ok, pathUser, sourceOf, UserParams } from './common.js';

const tags = ['Email addresses'];
const AddressParams = Type.Object({ id: Id, email: Type.String({ minLength: 1, maxLength: 254 }) });

export function emailAddressRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/users/:id/email-addresses',
    { schema: { tags, summary: "A user's addresses", description: `Primary first. 404 \`not_found\`. ${COMMON_ERRORS}`, params: UserParams, response: responses({ 200: envelope(Type.Array(Type.Ref('AdminEmailAddress'))) }) } },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      return ok(reply, (await admin.addressesOf(deps, user.id)).map(addressView));
    },
  );

  app.post(
    '/users/:id/email-addresses',
    {
      schema: {
        tags,
        summary: 'Add an address',
        description: `Verified or not; primary when asked or when it is the user's first. 201. Records \`email.added\` (and \`email.verified\`, \`email.primary_changed\`). Errors: 400 \`invalid\`, \`email_taken\` (another user has it), \`duplicate_email\` (this user has it); 404 \`not_found\`. ${COMMON_ERRORS}`,
        params: UserParams,
        body: Type.Object(
          { email: Type.String({ minLength: 1, maxLength: 254 }), verified: Type.Optional(Type.Boolean()), primary: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const { email, verified = false, primary = false } = request.body;
      const result = await admin.addAddress(deps, sourceOf(deps, request), user, { email, verified, primary });
      if (!result.ok) return result.error.code === 'not_found' ? refuse(reply, 404, 'not_found', 'email') : invalidInput(reply, [result.error]);
      return ok(reply, addressView(result.value), undefined, 201);
    },
  );

  app.patch(
    '/users/:id/email-addresses/:email',
    {
      schema: {
        tags,
        summary: 'Verify an address or make it primary',
        description: `\`verified: true\` marks it verified (\`email.verified\`), \`primary: true\` makes it the primary one (\`email.primary_changed\`). 404 \`not_found\` (no such user, or not their address). ${COMMON_ERRORS}`,
        params: AddressParams,
        body: Type.Object({ verified: Type.Optional(Type.Literal(true)), primary: Type.Optional(Type.Literal(true)) }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const address = await admin.addressOfUser(deps, user.id, request.params.email);
      if (!address) return refuse(reply, 404, 'not_found', 'email');
      const source = sourceOf(deps, request);
      if (request.body?.verified) await admin.verifyAddress(deps, source, address.email);
      if (request.body?.primary) await admin.makePrimary(deps, source, address.email);
      return ok(reply, addressView((await admin.addressOfUser(deps, user.id, address.email)) ?? address));
    },
  );

  app.delete(
    '/users/:id/email-addresses/:email',
    {
      schema: {
        tags,
        summary: 'Remove an address',
        description: `A primary address only when it is the user's last. Records \`email.removed\`. Errors: 400 \`cannot_remove_primary_email\`; 404 \`not_found\`. ${COMMON_ERRORS}`,
        params: AddressParams,
      },
    },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const address = await admin.addressOfUser(deps, user.id, request.params.email);
      if (!address) return refuse(reply, 404, 'not_found', 'email');
      const result = await admin.removeAddress(deps, sourceOf(deps, request), address.email);
      if (!result.ok) return result.error.code === 'not_found' ? refuse(reply, 404, 'not_found', 'email') : invalidInput(reply, [result.error]);
      return ok(reply, { ...addressView(result.value), removed: true });
    },
  );
}
