import { ConfigError, readInt, readOptional, type Env } from './env.js';
import { AUDIT_EVENT_TYPES, type AuditEventType } from '../domain/audit-event.js';

// The audit trail's retention and the optional webhooks that carry each
// event to other systems (WEBHOOK_URLS set: on).

export interface WebhookSettings {
  /** WEBHOOK_URLS: every event goes to each. */
  urls: string[];
  /** WEBHOOK_SECRET, decoded from its whsec_ form: the HMAC-SHA256 key. */
  secret: Buffer;
  /** WEBHOOK_EVENTS: the types sent; the rest are only recorded. */
  events: ReadonlySet<AuditEventType>;
  timeoutMs: number;
  maxAttempts: number;
  pollIntervalMs: number;
}

export interface AuditSettings {
  /** AUDIT_RETENTION_DAYS: events older than this are swept; 0 keeps them forever. */
  retentionDays: number;
  /** Null unless WEBHOOK_URLS is set. */
  webhooks: WebhookSettings | null;
  /** How the outbox is delivered (WEBHOOK_TIMEOUT_MS, _MAX_ATTEMPTS, _POLL_INTERVAL_MS), also for OpenID back-channel logouts without webhooks. */
  outbox: Pick<WebhookSettings, 'timeoutMs' | 'maxAttempts' | 'pollIntervalMs'>;
}

function readUrls(env: Env): string[] {
  const raw = readOptional(env, 'WEBHOOK_URLS');
  if (raw === undefined) return [];
  const urls = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError(`WEBHOOK_URLS: "${url}" is not a URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new ConfigError(`WEBHOOK_URLS: "${url}" is not an http(s) URL`);
  }
  return [...new Set(urls)];
}

/** The Standard Webhooks secret form: whsec_ and the base64 of 24 to 64 random bytes. */
function readSecret(env: Env): Buffer {
  const raw = readOptional(env, 'WEBHOOK_SECRET');
  if (raw === undefined) throw new ConfigError('WEBHOOK_SECRET is required with WEBHOOK_URLS (whsec_ followed by base64, e.g. from `openssl rand -base64 32`)');
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(raw.trim());
  const key = match ? Buffer.from(match[1]!, 'base64') : null;
  if (!key || key.length < 24 || key.length > 64) throw new ConfigError('WEBHOOK_SECRET: expected whsec_ followed by the base64 of 24 to 64 random bytes');
  return key;
}

function readEvents(env: Env): ReadonlySet<AuditEventType> {
  const raw = readOptional(env, 'WEBHOOK_EVENTS');
  if (raw === undefined || raw.trim() === '*') return new Set(AUDIT_EVENT_TYPES);
  const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new ConfigError('WEBHOOK_EVENTS: expected * or a comma-separated list of event types');
  for (const item of items) {
    if (!(AUDIT_EVENT_TYPES as readonly string[]).includes(item)) throw new ConfigError(`WEBHOOK_EVENTS: "${item}" is not an event type; see docs/audit-events.md`);
  }
  return new Set(items as AuditEventType[]);
}

export function readAuditSettings(env: Env): AuditSettings {
  const retentionDays = readInt(env, 'AUDIT_RETENTION_DAYS', 90, { min: 0, max: 36500 });
  const urls = readUrls(env);
  const outbox = {
    timeoutMs: readInt(env, 'WEBHOOK_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
    maxAttempts: readInt(env, 'WEBHOOK_MAX_ATTEMPTS', 12, { min: 1, max: 50 }),
    pollIntervalMs: readInt(env, 'WEBHOOK_POLL_INTERVAL_MS', 1000, { min: 10, max: 60_000 }),
  };
  if (urls.length === 0) return { retentionDays, webhooks: null, outbox };
  return { retentionDays, webhooks: { urls, secret: readSecret(env), events: readEvents(env), ...outbox }, outbox };
}
