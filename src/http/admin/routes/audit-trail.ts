import { Readable } from 'node:stream';
import { Type, type Static } from 'typebox';
import { allAuditEvents, auditEvents } from '../../../flows/admin/audit-trail.js';
import { AUDIT_EVENT_TYPES } from '../../../domain/audit-event.js';
import type { AuditEventRecord, AuditFilter, AuditPosition } from '../../../store/audit-events.js';
import { customEndpoint, type Endpoint } from '../../endpoint.js';
import { sendErrors } from '../../messages.js';
import { adminEndpoint, ok, refused, type AdminAnswer } from '../endpoint.js';
import { refuseUnknownFields } from '../unknown-fields.js';
import { eventView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Limit, limitOf } from './common.js';

// flows/admin/audit-trail.ts: the audit trail, a page at a time, as CSV, and
// the list of event types it may hold.

const tags = ['Audit trail'];
const Time = Type.String({ maxLength: 40, description: 'An ISO 8601 date or time (with `Z` or an offset; a bare date or time is UTC).' });
const ACTORS = ['cli', 'admin_api', 'admin_console', 'registration'] as const;

const Filters = {
  user_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: "Only this user's events (a deleted user's too)." })),
  type: Type.Optional(Type.String({ maxLength: 2000, description: 'Only these event types, comma-separated.' })),
  actor: Type.Optional(Type.Union([...ACTORS, 'user'].map((a) => Type.Literal(a)), { description: 'Only events made by this actor: `cli`, `admin_api` (a key), `admin_console` (an administrator), `registration` (dynamic client registration), or `user` (the user themselves: no actor recorded).' })),
  actor_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'Only events made by this admin API key (`admin_api`) or administrator (`admin_console`).' })),
  outcome: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failure')], { description: '`success` or `failure`.' })),
  since: Type.Optional(Time),
  until: Type.Optional(Time),
};

const ListQuery = Type.Object(
  { ...Filters, limit: Limit, cursor: Type.Optional(Type.String({ maxLength: 80, description: '`meta.next_cursor` of the previous page.' })) },
  { additionalProperties: false },
);
const ExportQuery = Type.Object(Filters, { additionalProperties: false });
type FilterQuery = Static<typeof ExportQuery>;

function parseTime(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return null;
  // A date or time without a zone is UTC (Date.parse would read a bare time as local).
  const zoned = /T|\s/.test(value) && !/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const millis = Date.parse(zoned);
  return Number.isNaN(millis) ? null : millis;
}

/** The filter a query asks for, or the 400 naming the parameter that is wrong. */
function filterOf(query: FilterQuery): Omit<AuditFilter, 'limit'> | AdminAnswer {
  const types = query.type?.split(',').map((t) => t.trim()).filter(Boolean);
  if (types?.some((t) => !(AUDIT_EVENT_TYPES as readonly string[]).includes(t))) return refused(400, 'invalid', 'type');
  const since = parseTime(query.since);
  if (since === null) return refused(400, 'invalid', 'since');
  const until = parseTime(query.until);
  if (until === null) return refused(400, 'invalid', 'until');
  if (query.actor_id !== undefined && query.actor !== 'admin_api' && query.actor !== 'admin_console') return refused(400, 'invalid', 'actor_id');
  return {
    userId: query.user_id === undefined ? undefined : Number(query.user_id),
    types,
    actor: query.actor === 'user' ? null : query.actor,
    actorId: query.actor_id === undefined ? undefined : Number(query.actor_id),
    outcome: query.outcome,
    since,
    until,
  };
}

const isAnswer = (value: object): value is AdminAnswer => 'status' in value;

/** Cursors name the last event of a page by time and id (the listing's order), opaque to clients. */
const encodePosition = ({ occurredAt, id }: AuditPosition) => Buffer.from(`a1:${occurredAt}:${id}`, 'utf8').toString('base64url');
function decodePosition(cursor: string): AuditPosition | null {
  const match = /^a1:(\d{1,15}):(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? { occurredAt: Number(match[1]), id: Number(match[2]) } : null;
}

const FILTER_TEXT = `by user, type (comma-separated: ${AUDIT_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}; GET /audit-event-types lists them), actor (and \`actor_id\`, which needs \`actor\` \`admin_api\` or \`admin_console\`), outcome and time (\`since\` inclusive, \`until\` exclusive)`;

const list = adminEndpoint({
  method: 'GET',
  path: '/audit-events',
  tags,
  summary: 'Query the audit trail',
  description: `Security events, newest first (by time, then id), ${FILTER_TEXT}; \`meta.next_cursor\` fetches older ones. Errors: 400 \`invalid\` (param type, actor_id, since, until or cursor). ${COMMON_ERRORS}`,
  response: responses({ 200: envelope(Type.Array(Type.Ref('AdminAuditEvent')), { paged: true }) }),
  querystring: ListQuery,
  run: async (deps, _call, { query }) => {
    const filter = filterOf(query);
    if (isAnswer(filter)) return filter;
    const after = query.cursor === undefined ? undefined : decodePosition(query.cursor);
    if (after === null) return refused(400, 'invalid', 'cursor');
    const limit = limitOf(query.limit);
    const events = await auditEvents(deps, { ...filter, after, limit });
    const last = events.at(-1);
    return ok(events.map(eventView), { next_cursor: events.length === limit && last ? encodePosition(last) : null });
  },
});

const CSV_COLUMNS = ['id', 'event_id', 'occurred_at', 'type', 'user_id', 'outcome', 'actor', 'actor_id', 'ip', 'user_agent', 'detail'] as const;

/**
 * One CSV cell (RFC 4180). A cell a spreadsheet would read as a formula
 * (leading =, +, -, @, or a tab or carriage return before one) gets a
 * leading apostrophe: addresses, user agents and identifiers are typed by
 * anyone, and an export is opened by an administrator.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRow(event: AuditEventRecord): string {
  const { actor, actor_id: actorId, ...rest } = event.detail as { actor?: string; actor_id?: number };
  const cells = [event.id, event.eventId, new Date(event.occurredAt).toISOString(), event.type, event.userId, event.outcome, actor, actorId, event.ip, event.userAgent, JSON.stringify(rest)];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

async function* csvOf(events: AsyncIterable<AuditEventRecord>): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  // Rows go out in batches: one write per event would be thousands of tiny chunks.
  let batch = '';
  for await (const event of events) {
    batch += csvRow(event);
    if (batch.length > 64_000) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

const exportCsv: Endpoint = customEndpoint({
  method: 'GET',
  path: '/audit-events/export',
  tags,
  summary: 'Export the audit trail as CSV',
  description: `Every event that GET /audit-events would list with the same filters (${FILTER_TEXT}), newest first, as \`text/csv\` (a download: Content-Disposition \`attachment\`), read from the database a page at a time and streamed. Columns: ${CSV_COLUMNS.map((c) => `\`${c}\``).join(', ')} (\`occurred_at\` in UTC, ISO 8601; \`detail\` the rest of the event's detail as JSON). A cell beginning with =, +, -, @, a tab or a carriage return gets a leading apostrophe, so a spreadsheet shows it rather than running it. Errors (JSON): 400 \`invalid\` (param type, actor_id, since or until). ${COMMON_ERRORS}`,
  querystring: ExportQuery,
  response: responses({}),
  preValidationWith: (deps) => refuseUnknownFields({ querystring: ExportQuery }, deps.i18n),
  handler: (deps) => async (request, reply) => {
    const filter = filterOf(request.query as FilterQuery);
    if (isAnswer(filter)) return 'errors' in filter ? sendErrors(deps.i18n, request, reply, filter.status, filter.errors) : reply;
    const stamp = new Date(deps.clock.now()).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-events-${stamp}.csv"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(csvOf(allAuditEvents(deps, filter))));
  },
});

const eventTypes = adminEndpoint({
  method: 'GET',
  path: '/audit-event-types',
  tags,
  summary: 'List the audit event types',
  description: `Every event type the audit trail may hold (docs/audit-events.md describes each), for a filter to offer, and the actors an event may name. ${COMMON_ERRORS}`,
  response: responses({ 200: envelope(Type.Object({ types: Type.Array(Type.String()), actors: Type.Array(Type.String()) })) }),
  run: async () => ok({ types: AUDIT_EVENT_TYPES, actors: [...ACTORS, 'user'] }),
});

export const auditTrail: Endpoint[] = [list, exportCsv, eventTypes];
