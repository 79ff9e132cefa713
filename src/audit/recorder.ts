import { randomFillSync } from 'node:crypto';
import type { Config } from '../config/config.js';
import type { AuthMethod } from '../domain/session.js';
import type { AuditDetail, AuditEventType, AuditFailureReason, AuditMethod } from '../domain/audit-event.js';
import type { Conn } from '../store/db.js';
import { inTransaction } from '../store/all-or-nothing.js';
import { insertAuditEvent, insertAuditEvents, type NewAuditEvent } from '../store/audit-events.js';
import { insertDeliveries } from '../store/webhook-deliveries.js';
import { enqueueBackchannelLogouts } from '../messaging/backchannel-logout.js';
import { secretRing } from '../security/signing.js';

// Recording security events. Each is written on the connection of the change
// it reports, so it commits and rolls back with it; with webhooks on, its
// outbox rows go into the same transaction, so a committed event is always
// delivered eventually and a rolled-back one never.

/** Who acted when not the user themselves: the admin CLI, an admin API key, an administrator in the console, or a client at the OpenID provider's registration endpoint. */
export type AuditActor = 'cli' | 'admin_api' | 'admin_console' | 'registration';

/** Where an event comes from: a request (IP, user agent), or an admin front end. */
export interface AuditSource {
  ip: string;
  userAgent: string;
  now: number;
  actor?: AuditActor;
  /** With `admin_api`: the key's id; with `admin_console`: the administrator's user id. */
  actorId?: number;
}

export interface EventFields {
  userId: number | null;
  outcome?: 'success' | 'failure';
  detail?: AuditDetail;
  /** With an event that ends sessions: which ones, when not every session of the user (back-channel logout names them). */
  endedSessions?: readonly number[];
}

/** Events that end a user's sessions here: the OpenID provider's clients hear of them by back-channel logout. */
const SESSIONS_ENDED: ReadonlySet<AuditEventType> = new Set(['logout', 'session.revoked', 'password.changed', 'password.reset', 'account.disabled', 'account.deleted']);

export async function recordEvent(deps: { config: Config }, conn: Conn, source: AuditSource, type: AuditEventType, fields: EventFields): Promise<void> {
  if (deps.config.idp.enabled && fields.userId !== null && SESSIONS_ENDED.has(type) && (fields.outcome ?? 'success') === 'success') {
    // In the change's transaction, as the event: a rolled-back logout tells no client.
    const userId = fields.userId;
    return inTransaction(conn, async (tx) => {
      await enqueueBackchannelLogouts(deps.config.idp, tx, userId, source.now, { ids: fields.endedSessions, secret: secretRing(deps.config)[0]! });
      await recordAuditEvent(deps, tx, source, type, fields);
    });
  }
  return recordAuditEvent(deps, conn, source, type, fields);
}

/** An event to record among others (recordEvents). */
export interface PendingAuditEvent {
  source: AuditSource;
  type: AuditEventType;
  fields: EventFields;
}

/**
 * Many events at once, as recordEvent would record each (the OpenID
 * provider's token events, gathered from concurrent requests): those that
 * neither a webhook nor a back-channel logout follows go in as one
 * statement, the others each as recordEvent does, all in one transaction
 * when there is more than one statement.
 */
export async function recordEvents(deps: { config: Config }, conn: Conn, events: readonly PendingAuditEvent[]): Promise<void> {
  const webhooks = deps.config.audit.webhooks;
  const plain = events.filter(({ type, fields }) => !webhooks?.events.has(type) && !(fields.userId !== null && SESSIONS_ENDED.has(type)));
  const others = events.filter((event) => !plain.includes(event));
  const write = async (tx: Conn) => {
    if (plain.length > 0) await insertAuditEvents(tx, plain.map(({ source, type, fields }) => auditEventOf(source, type, fields)));
    for (const { source, type, fields } of others) await recordEvent(deps, tx, source, type, fields);
  };
  return others.length === 0 ? write(conn) : inTransaction(conn, write);
}

/**
 * `evt_` and 32 hex digits: the event's time in milliseconds (12 digits),
 * then 80 random bits. Unique across databases as a random UUID is, and in
 * time order, so that each new event's entry in the unique event_id index
 * lands at its end rather than on a random page of it: every page a commit
 * touches is one more page written to SQLite's WAL, and with a random id a
 * batch of 25 events touched about 25 (raw better-sqlite3, 50,000 events in
 * the table: 128 against 50 us a row).
 */
function newEventId(now: number): string {
  return `evt_${Math.max(0, Math.floor(now)).toString(16).padStart(12, '0').slice(-12)}${randomHex(10)}`;
}

/**
 * The random part of event ids, taken from a pool filled 4 KiB at a time:
 * a call into the CSPRNG costs about 3-4 us whatever its size, and the OpenID
 * provider records an event for every token it issues.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}

function auditEventOf(source: AuditSource, type: AuditEventType, fields: EventFields): NewAuditEvent {
  const detail: AuditDetail = {
    ...fields.detail,
    ...(source.actor ? { actor: source.actor } : {}),
    ...(source.actorId !== undefined ? { actor_id: source.actorId } : {}),
  };
  return {
    eventId: newEventId(source.now),
    occurredAt: source.now,
    type,
    userId: fields.userId,
    ip: source.ip,
    userAgent: source.userAgent,
    outcome: fields.outcome ?? 'success',
    detail,
  };
}

async function recordAuditEvent(deps: { config: Config }, conn: Conn, source: AuditSource, type: AuditEventType, fields: EventFields): Promise<void> {
  const event = auditEventOf(source, type, fields);
  const detail = event.detail;
  const webhooks = deps.config.audit.webhooks;
  if (!webhooks?.events.has(type)) return insertAuditEvent(conn, event);
  const payload = JSON.stringify({
    type,
    timestamp: new Date(event.occurredAt).toISOString(),
    data: { id: event.eventId, user_id: event.userId, ip: event.ip, user_agent: event.userAgent, outcome: event.outcome, detail },
  });
  await inTransaction(conn, async (tx) => {
    await insertAuditEvent(tx, event);
    await insertDeliveries(tx, event.eventId, webhooks.urls, payload, source.now);
  });
}

/** A failed attempt: no change to commit with, so the event is written on its own. */
export function recordFailure(deps: { config: Config; db: Conn }, source: AuditSource, type: AuditEventType, userId: number | null, reason: AuditFailureReason, detail: AuditDetail = {}): Promise<void> {
  return recordEvent(deps, deps.db, source, type, { userId, outcome: 'failure', detail: { ...detail, reason } });
}

/** The name an event gives a proof of identity. */
export function methodOf(method: AuthMethod): AuditMethod {
  if (method.method === 'socialaccount') return 'social';
  if (method.method === 'mfa') return method.passwordless ? 'passkey' : 'mfa';
  return method.method;
}

/** What a completed login records: its first factor, the second if any, and the provider of a social one. */
export function loginDetail(methods: AuthMethod[]): AuditDetail {
  const [first] = methods;
  if (!first) return { method: 'signup' };
  const second = methods.find((m, i) => i > 0 && m.method === 'mfa');
  return {
    method: methodOf(first),
    ...(first.method === 'socialaccount' ? { provider: first.provider } : {}),
    ...(second?.method === 'mfa' ? { mfa: second.type } : {}),
  };
}

/** The admin command line as a source: no address or user agent, the actor says who. */
export function cliSource(now: number): AuditSource {
  return { ip: '', userAgent: '', now, actor: 'cli' };
}

/** A request to the admin API, made with the key `keyId`. */
export function adminApiSource(request: { ip: string; userAgent: string }, now: number, keyId: number): AuditSource {
  return { ip: request.ip, userAgent: request.userAgent, now, actor: 'admin_api', actorId: keyId };
}

/** A request from the admin console, made by the administrator `adminId`. */
export function adminConsoleSource(request: { ip: string; userAgent: string }, now: number, adminId: number): AuditSource {
  return { ip: request.ip, userAgent: request.userAgent, now, actor: 'admin_console', actorId: adminId };
}
