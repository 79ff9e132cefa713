import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import type { AccessLog } from '../observability/access-log.js';
import type { Logger } from '../observability/logger.js';
import { countOutcome } from './outcome-metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Probes and scrapes: their successful requests are logged at debug level only. */
    quiet?: boolean;
  }
}

/**
 * The one place every finished request passes: Fastify calls it once per
 * response, with no hook of its own on the request path. It writes the
 * request's log line (id, method, route pattern, status, duration, client
 * kind; never the URL, whose query may carry a code or a state) and counts
 * the request for the metrics, with the outcome render.ts recorded for
 * login and refresh routes (outcome-metrics.ts).
 */
export class RequestObserver extends LogController {
  readonly #metrics: Metrics;
  readonly #access: AccessLog;
  readonly #trace: boolean;
  readonly #debug: boolean;

  constructor(metrics: Metrics, access: AccessLog, log: Logger) {
    super({ requestIdLogLabel: 'request_id' });
    this.#metrics = metrics;
    this.#access = access;
    this.#trace = log.isLevelEnabled('trace');
    this.#debug = log.isLevelEnabled('debug');
  }

  // Fastify's own request lines carry the URL; ours replace them. At trace
  // level a request is also logged as it arrives (routed, body not yet read),
  // to see what a process was doing when it stopped.
  override incomingRequest(request: FastifyRequest): void {
    if (this.#trace) request.log.trace({ method: request.method, route: request.routeOptions.url ?? 'unmatched' }, 'request received');
  }
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const options = request.routeOptions;
    // A route pattern (its prefix included) or, for unknown paths, one fixed label.
    const route = options.url ?? 'unmatched';
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    this.#metrics.request(request.method, route, status, ms / 1000);
    const counted = options.config.counted;
    if (counted) countOutcome(this.#metrics, counted, request.outcome);
    const client = request.auth?.client ?? null;
    if (!error && !(options.config.quiet && status < 400)) {
      this.#access.write({ requestId: request.id, method: request.method, route, status, durationMs: ms, client });
      return;
    }
    const line = { method: request.method, route, status, duration_ms: Math.round(ms * 100) / 100, client };
    if (error) reply.log.warn({ ...line, err: error }, 'request failed');
    else if (this.#debug) reply.log.debug(line, 'request');
  }
}
