import { randomUUID } from 'node:crypto';
import type { WebhookSettings } from '../../config/audit.js';
import type { Clock } from '../../kernel/clock.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Db } from '../../store/db.js';
import { claimDueDeliveries, pendingDeliveries, settleDelivery, type Delivery } from '../../store/webhook-deliveries.js';
import { signedHeaders } from './signature.js';
import { retryDelayMs } from './retry-schedule.js';
import { postToPublicAddress } from './public-post.js';

// Delivers the webhook outbox, at least once per event and URL. Every
// instance may run a sender: each round claims due rows under a lease (see
// store/webhook-deliveries.ts), POSTs them in parallel, each bounded by
// WEBHOOK_TIMEOUT_MS, and records the result. A sender that dies mid-round
// leaves its rows to whoever claims them once the lease has run out.

/** Rows claimed per round; a full round is followed by another at once. */
const BATCH = 20;

export interface WebhookSender {
  /** Stops claiming and waits for the round in flight to finish. */
  stop(): Promise<void>;
}

export interface SenderDeps {
  db: Db;
  /** Without webhooks (only back-channel logouts in the outbox) the secret is empty and never used. */
  settings: WebhookSettings;
  clock: Clock;
  metrics: Metrics;
  /** IDP_OIDC_BACKCHANNEL_LOGOUT_ALLOW_PRIVATE: back-channel logouts may go to private addresses. */
  backchannelAllowPrivate: boolean;
  /** A round that failed (database unreachable, ...); the next one tries again. */
  onError(error: unknown): void;
}

/** Why an attempt failed, short enough for the outbox row. */
function failureOf(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timeout';
  // fetch puts the system's code (ECONNREFUSED) in the cause, node:http on the error.
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  if (typeof code === 'string') return code;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}

/** What a delivery is sent as: a signed JSON event, or an OpenID back-channel logout request (a form with the logout token, signed itself). */
function headersOf(deps: SenderDeps, delivery: Delivery): Record<string, string> {
  if (delivery.kind === 'backchannel_logout') return { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'headless-auth-backchannel-logout' };
  const signed = signedHeaders(deps.settings.secret, delivery.eventId, Math.floor(deps.clock.now() / 1000), delivery.payload);
  return { 'content-type': 'application/json', 'user-agent': 'headless-auth-webhooks', ...signed };
}

/** A back-channel logout URI is the registering client's choice, so it is sent where the connection's addresses are checked (public-post.ts). */
async function postBackchannelLogout(deps: SenderDeps, delivery: Delivery): Promise<string | null> {
  try {
    const init = { headers: headersOf(deps, delivery), body: delivery.payload, signal: AbortSignal.timeout(deps.settings.timeoutMs), allowPrivate: deps.backchannelAllowPrivate };
    const status = await postToPublicAddress(delivery.url, init);
    return status >= 200 && status < 300 ? null : `HTTP ${status}`;
  } catch (error) {
    return failureOf(error);
  }
}

async function post(deps: SenderDeps, delivery: Delivery): Promise<string | null> {
  const { settings } = deps;
  if (delivery.kind === 'backchannel_logout') return postBackchannelLogout(deps, delivery);
  try {
    const response = await fetch(delivery.url, {
      method: 'POST',
      headers: headersOf(deps, delivery),
      body: delivery.payload,
      // A redirect is not followed: the receiver's answer to this URL is what counts.
      redirect: 'manual',
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    // Read (and drop) the body, so the connection can be reused.
    await response.arrayBuffer().catch(() => undefined);
    return response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`;
  } catch (error) {
    return failureOf(error);
  }
}

async function deliver(deps: SenderDeps, delivery: Delivery, token: string): Promise<void> {
  const failure = await post(deps, delivery);
  const now = deps.clock.now();
  if (failure === null) {
    if (await settleDelivery(deps.db, delivery.id, token, { status: 'delivered', now })) deps.metrics.webhookDelivery('delivered');
    return;
  }
  const last = delivery.attempts >= deps.settings.maxAttempts;
  const settled = last
    ? await settleDelivery(deps.db, delivery.id, token, { status: 'failed', now, error: failure })
    : await settleDelivery(deps.db, delivery.id, token, { status: 'pending', now, nextAttemptAt: now + retryDelayMs(delivery.attempts), error: failure });
  if (settled) deps.metrics.webhookDelivery(last ? 'failed' : 'retry');
}

export function startWebhookSender(deps: SenderDeps): WebhookSender {
  // Longer than any attempt can take, so a live sender never loses its rows to another.
  const leaseMs = 2 * deps.settings.timeoutMs + 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | undefined;

  const runRound = async (): Promise<boolean> => {
    const now = deps.clock.now();
    const { pending, due } = await pendingDeliveries(deps.db, now);
    deps.metrics.webhookBacklog(pending);
    if (due === 0) return false;
    const token = randomUUID();
    const claimed = await claimDueDeliveries(deps.db, { now, leaseUntil: now + leaseMs, token, limit: BATCH });
    await Promise.all(claimed.map((delivery) => deliver(deps, delivery, token)));
    // Straight on to the next round: more may be due, and the gauge is counted afresh.
    return claimed.length > 0;
  };
  const tick = () => {
    round = runRound()
      .catch((error) => {
        deps.onError(error);
        return false;
      })
      .then((more) => {
        round = undefined;
        if (!stopped) timer = setTimeout(tick, more ? 0 : deps.settings.pollIntervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
