import { Type } from 'typebox';
import { auditEvents } from '../../../flows/admin/audit-trail.js';
import { AUDIT_EVENT_TYPES } from '../../../domain/audit-event.js';
import { adminEndpoint, ok, refused } from '../endpoint.js';
import { eventView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, decodeCursor, Limit, limitOf, pageMeta } from './common.js';

// flows/admin/audit-trail.ts: the audit trail.

const tags = ['Audit trail'];
const Time = Type.String({ maxLength: 40, description: 'An ISO 8601 date or time.' });

const Query = Type.Object(
  {
    user_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: "Only this user's events (a deleted user's too)." })),
    type: Type.Optional(Type.String({ maxLength: 1000, description: 'Only these event types, comma-separated.' })),
    since: Type.Optional(Time),
    until: Type.Optional(Time),
    limit: Limit,
    cursor: Type.Optional(Type.String({ maxLength: 64, description: '`meta.next_cursor` of the previous page.' })),
  },
  { additionalProperties: false },
);

function parseTime(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return null;
  const millis = Date.parse(value);
  return Number.isNaN(millis) ? null : millis;
}

export const auditTrail = adminEndpoint({
  method: 'GET',
  path: '/audit-events',
  tags,
  summary: 'Query the audit trail',
  description: `Security events, newest first, by user, type (${AUDIT_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}) and time (\`since\` inclusive, \`until\` exclusive); \`meta.next_cursor\` fetches older ones. Errors: 400 \`invalid\` (param type, since, until or cursor). ${COMMON_ERRORS}`,
  response: responses({ 200: envelope(Type.Array(Type.Ref('AdminAuditEvent')), { paged: true }) }),
  querystring: Query,
  run: async (deps, _call, { query }) => {
    const types = query.type?.split(',').map((t) => t.trim()).filter(Boolean);
    if (types?.some((t) => !(AUDIT_EVENT_TYPES as readonly string[]).includes(t))) return refused(400, 'invalid', 'type');
    const since = parseTime(query.since);
    if (since === null) return refused(400, 'invalid', 'since');
    const until = parseTime(query.until);
    if (until === null) return refused(400, 'invalid', 'until');
    const beforeId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (beforeId === null) return refused(400, 'invalid', 'cursor');
    const limit = limitOf(query.limit);
    const events = await auditEvents(deps, { userId: query.user_id === undefined ? undefined : Number(query.user_id), types, since, until, beforeId, limit });
    return ok(events.map(eventView), pageMeta(events, limit));
  },
});
