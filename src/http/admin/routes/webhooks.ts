import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import { requeueWebhooks, undeliveredWebhooks } from '../../../flows/admin/webhooks.js';
import { errorBody } from '../../messages.js';
import { refuse } from '../caller.js';
import { deliveryView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, decodeCursor, encodeCursor, Limit, limitOf, ok, sourceOf } from './common.js';

const tags = ['Webhook deliveries'];

export function webhookRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/webhook-deliveries',
    {
      schema: {
        tags,
        summary: 'Undelivered webhook deliveries',
        description: `Pending and failed ones (or one status), newest first; \`meta.next_cursor\` fetches older ones. Errors: 400 \`invalid\` (param cursor). ${COMMON_ERRORS}`,
        response: responses({ 200: envelope(Type.Array(Type.Ref('AdminDelivery')), { paged: true }) }),
        querystring: Type.Object(
          {
            status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('failed')])),
            limit: Limit,
            cursor: Type.Optional(Type.String({ maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const beforeId = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor);
      if (beforeId === null) return refuse(reply, 400, 'invalid', 'cursor');
      const limit = limitOf(request.query.limit);
      const deliveries = await undeliveredWebhooks(deps, { status: request.query.status, beforeId, limit });
      return ok(reply, deliveries.map(deliveryView), { next_cursor: deliveries.length === limit ? encodeCursor(deliveries.at(-1)!.id) : null });
    },
  );

  app.post(
    '/webhook-deliveries/requeue',
    {
      schema: {
        tags,
        summary: 'Send failed deliveries again',
        description: `The ones named in \`ids\` (all of them failed, or none is requeued), or every failed one with \`all_failed\`. Running instances send them in their next round, with their attempts counted afresh. Records \`webhook.requeued\`. Errors: 400 \`required\` (neither or both), 404 \`not_found\`, 409 \`not_failed\` (param ids). ${COMMON_ERRORS}`,
        body: Type.Object(
          { ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 })), all_failed: Type.Optional(Type.Literal(true)) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const { ids, all_failed: allFailed } = request.body ?? {};
      if ((ids === undefined) === (allFailed === undefined)) return refuse(reply, 400, 'required', 'ids');
      const result = await requeueWebhooks(deps, sourceOf(deps, request), allFailed ? 'all failed' : ids!);
      if (!result.ok) {
        const status = result.reason === 'not_found' ? 404 : 409;
        return reply.code(status).send(errorBody(status, [{ code: result.reason, param: 'ids', message: `Delivery ${result.id}: ${result.reason === 'not_found' ? 'no such delivery.' : `it is ${result.status}, not failed; nothing was requeued.`}` }]));
      }
      return ok(reply, result.requeued.map(deliveryView));
    },
  );
}
