import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { FastHistogram, type Series } from './histogram.js';

// What the service counts for Prometheus. One registry per app, so several
// apps in one process (the tests) never share a counter. Disabled metrics
// (METRICS_ENABLED=false) are no-ops with the same interface.

export type LoginOutcome = 'success' | 'pending' | 'failure' | 'locked' | 'inactive' | 'invalid' | 'rate_limited' | 'unavailable';

export interface Metrics {
  /** Null when metrics are off. */
  readonly registry: Registry | null;
  request(method: string, route: string, status: number, seconds: number): void;
  login(method: string, outcome: LoginOutcome): void;
  rateLimited(action: string): void;
  mail(result: 'sent' | 'failed'): void;
  sms(result: 'sent' | 'failed'): void;
  query(seconds: number): void;
  tokenRefresh(outcome: 'success' | 'failure'): void;
  refreshTokenReuse(): void;
  webhookDelivery(outcome: 'delivered' | 'retry' | 'failed'): void;
  webhookBacklog(pending: number): void;
}

/** Figures read at scrape time, so the hot path pays nothing for them. */
export interface MetricSources {
  passwordHashes(): { running: number; queued: number };
}

const noop = () => {};
export const disabledMetrics: Metrics = {
  registry: null,
  request: noop,
  login: noop,
  rateLimited: noop,
  mail: noop,
  sms: noop,
  query: noop,
  tokenRefresh: noop,
  refreshTokenReuse: noop,
  webhookDelivery: noop,
  webhookBacklog: noop,
};

// Requests range from a cached session lookup (well under a millisecond) to
// a login (a password hash, tens of milliseconds, more under load).
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process and runtime figures, event-loop lag among them.
  collectDefaultMetrics({ register: registry });

  const requests = new FastHistogram('http_request_duration_seconds', 'HTTP requests by method, route pattern and status, with their duration', ['method', 'route', 'status'] as const, REQUEST_BUCKETS, registry);
  const logins = new Counter({ name: 'auth_logins_total', help: 'Login attempts by method and outcome', labelNames: ['method', 'outcome'] as const, registers });
  const rateLimited = new Counter({ name: 'auth_rate_limit_rejections_total', help: 'Requests refused by a rate limit, by action', labelNames: ['action'] as const, registers });
  const mails = new Counter({ name: 'auth_mails_total', help: 'Mails handed to the transport, by result', labelNames: ['result'] as const, registers });
  const sms = new Counter({ name: 'auth_sms_total', help: 'Text messages handed to the SMS backend, by result', labelNames: ['result'] as const, registers });
  const queries = new FastHistogram('db_query_duration_seconds', 'Database query time', [], QUERY_BUCKETS, registry).series({});
  const refreshes = new Counter({ name: 'auth_token_refreshes_total', help: 'Refresh-token requests by outcome', labelNames: ['outcome'] as const, registers });
  const reuse = new Counter({ name: 'auth_refresh_token_reuse_total', help: 'Rotated refresh tokens presented again (their token family and session were revoked)', registers });
  const webhookAttempts = new Counter({
    name: 'auth_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (failed, tried again later) or failed (out of attempts)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const webhookBacklog = new Gauge({ name: 'auth_webhook_outbox_backlog', help: 'Webhook deliveries not yet delivered nor failed, as this instance last counted', registers });
  for (const outcome of ['delivered', 'retry', 'failed'] as const) webhookAttempts.inc({ outcome }, 0);
  for (const result of ['sent', 'failed'] as const) {
    mails.inc({ result }, 0);
    sms.inc({ result }, 0);
  }
  for (const outcome of ['success', 'failure'] as const) refreshes.inc({ outcome }, 0);
  new Gauge({
    name: 'auth_password_hashes',
    help: 'Password hashes (argon2id and imported formats) running on the thread pool or queued for a slot',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const { running, queued } = sources.passwordHashes();
      this.set({ state: 'running' }, running);
      this.set({ state: 'queued' }, queued);
    },
  });

  // One series per label set, found by route, method and status: the route
  // and method strings are the same objects on every request (so their hashes
  // are cached), and no key is built per request.
  const requestSeries = new Map<string, Map<string, Map<number, Series>>>();

  return {
    registry,
    request(method, route, status, seconds) {
      let byMethod = requestSeries.get(route);
      if (!byMethod) requestSeries.set(route, (byMethod = new Map()));
      let byStatus = byMethod.get(method);
      if (!byStatus) byMethod.set(method, (byStatus = new Map()));
      let series = byStatus.get(status);
      if (!series) byStatus.set(status, (series = requests.series({ method, route, status: String(status) })));
      series.observe(seconds);
    },
    login: (method, outcome) => logins.inc({ method, outcome }),
    rateLimited: (action) => rateLimited.inc({ action }),
    mail: (result) => mails.inc({ result }),
    sms: (result) => sms.inc({ result }),
    query: (seconds) => queries.observe(seconds),
    tokenRefresh: (outcome) => refreshes.inc({ outcome }),
    refreshTokenReuse: () => reuse.inc(),
    webhookDelivery: (outcome) => webhookAttempts.inc({ outcome }),
    webhookBacklog: (pending) => webhookBacklog.set(pending),
  };
}
