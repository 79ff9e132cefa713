import { Type } from 'typebox';
import { requeueWebhooks, undeliveredWebhooks } from '../../../flows/admin/webhooks.js';
import { adminEndpoint, ok, refused } from '../endpoint.js';
import { deliveryView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, decodeCursor, Limit, limitOf, pageMeta } from './common.js';
import { msg } from '../../../i18n/message.js';

// flows/admin/webhooks.ts: the webhook outbox.

const tags = ['Webhook deliveries'];

export const webhooks = [
  adminEndpoint({
    method: 'GET',
    path: '/webhook-deliveries',
    tags,
    summary: 'Webhook deliveries',
    description: `Pending and failed ones, or those of one status (delivered ones are kept until swept with the audit trail), newest first; \`meta.next_cursor\` fetches older ones. Errors: 400 \`invalid\` (param cursor). ${COMMON_ERRORS}`,
    response: responses({ 200: envelope(Type.Array(Type.Ref('AdminDelivery')), { paged: true }) }),
    querystring: Type.Object(
      {
        status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], { description: 'Pending and failed ones by default.' })),
        limit: Limit,
        cursor: Type.Optional(Type.String({ maxLength: 64 })),
      },
      { additionalProperties: false },
    ),
    run: async (deps, _call, { query }) => {
      const beforeId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (beforeId === null) return refused(400, 'invalid', 'cursor');
      const limit = limitOf(query.limit);
      const deliveries = await undeliveredWebhooks(deps, { status: query.status, beforeId, limit });
      return ok(deliveries.map(deliveryView), pageMeta(deliveries, limit));
    },
  }),
  adminEndpoint({
    method: 'POST',
    path: '/webhook-deliveries/requeue',
    tags,
    summary: 'Send failed deliveries again',
    description: `The ones named in \`ids\` (all of them failed, or none is requeued), or every failed one with \`all_failed\`. Running instances send them in their next round, with their attempts counted afresh. Records \`webhook.requeued\`. Errors: 400 \`required\` (neither or both), 404 \`not_found\`, 409 \`not_failed\` (param ids). ${COMMON_ERRORS}`,
    body: Type.Object(
      { ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 })), all_failed: Type.Optional(Type.Literal(true)) },
      { additionalProperties: false },
    ),
    run: async (deps, call, input) => {
      const { ids, all_failed: allFailed } = input.body ?? {};
      if ((ids === undefined) === (allFailed === undefined)) return refused(400, 'required', 'ids');
      const result = await requeueWebhooks(deps, call.source(), allFailed ? 'all failed' : ids!);
      if (result.ok) return ok(result.requeued.map(deliveryView));
      const message = result.reason === 'not_found' ? msg('not_found.delivery', { id: result.id }) : msg('not_failed.delivery', { id: result.id, status: result.status ?? '' });
      return { status: result.reason === 'not_found' ? 404 : 409, errors: [{ code: result.reason, param: 'ids', message }] };
    },
  }),
];
