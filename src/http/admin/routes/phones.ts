import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import * as admin from '../../../flows/admin/phones.js';
import { refuse } from '../caller.js';
import { phoneView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, invalidInput, ok, pathUser, sourceOf, UserParams } from './common.js';

const tags = ['Phone numbers'];

export function phoneRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/users/:id/phone',
    { schema: { tags, summary: "A user's phone number", description: `\`data\` is null when they have none. 404 \`not_found\`. ${COMMON_ERRORS}`, params: UserParams, response: responses({ 200: envelope(Type.Union([Type.Ref('AdminPhoneNumber'), Type.Null()])) }) } },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const phone = await admin.phoneOf(deps, user.id);
      return ok(reply, phone ? phoneView(phone) : null);
    },
  );

  app.put(
    '/users/:id/phone',
    {
      schema: {
        tags,
        summary: "Set a user's phone number",
        description: `In international format, verified or not, replacing any other. Records \`phone.changed\` (and \`phone.verified\`). Errors: 400 \`invalid\`, \`phone_taken\`; 404 \`not_found\`. ${COMMON_ERRORS}`,
        params: UserParams,
        body: Type.Object({ phone: Type.String({ minLength: 1, maxLength: 32 }), verified: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const result = await admin.setPhone(deps, sourceOf(deps, request), user, { phone: request.body.phone, verified: request.body.verified ?? false });
      if (!result.ok) return invalidInput(reply, [result.error]);
      return ok(reply, phoneView(result.phone));
    },
  );

  app.delete(
    '/users/:id/phone',
    { schema: { tags, summary: "Remove a user's phone number", description: `Records \`phone.removed\`. 404 \`not_found\` (no such user, or no number). ${COMMON_ERRORS}`, params: UserParams } },
    async (request, reply) => {
      const user = await pathUser(deps, request.params.id, reply);
      if (!user) return reply;
      const removed = await admin.removePhone(deps, sourceOf(deps, request), user);
      if (!removed) return refuse(reply, 404, 'not_found', 'phone');
      return ok(reply, { ...phoneView(removed), removed: true });
    },
  );
}
