import { Type } from 'typebox';
import type { Registry } from 'prom-client';
import type { Readiness } from '../../../observability/readiness.js';
import { customEndpoint, type Endpoint } from '../../endpoint.js';
import { errorsFor } from '../../messages.js';
import { msg } from '../../../i18n/message.js';
import { ErrorItem } from '../../schemas.js';

// Probes and metrics for operators, outside the client prefixes. Their
// successful requests are logged at debug level only (a probe polled every
// second would drown the log); a failing readiness check is a warning.

const Check = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('failing')]),
  ms: Type.Number({ description: 'How long the check took.' }),
  error: Type.Optional(Type.String({ description: 'What failed: a timeout, or the error class and code.' })),
});

const ReadinessBody = Type.Object({
  status: Type.Integer(),
  data: Type.Object({ checks: Type.Record(Type.String(), Check) }),
  errors: Type.Optional(Type.Array(ErrorItem)),
});

export interface OperationsRoutes {
  readiness(): Promise<Readiness>;
  /** The registry to serve at /metrics on this server; null when metrics are off or on their own port. */
  metrics: Registry | null;
}

const quiet = { quiet: true };

/** Mounted at the root, outside the client prefixes. */
export function operationsEndpoints(ops: OperationsRoutes): Endpoint[] {
  return [
    customEndpoint({
      method: 'GET',
      path: '/healthz',
      config: quiet,
      tags: ['Operations'],
      summary: 'Liveness',
      description: 'Answers 200 while the process serves requests; it checks no dependency (see /readyz). No error codes.',
      response: { 200: Type.Object({ status: Type.Integer(), data: Type.Object({ alive: Type.Boolean() }) }) },
      handler: () => async () => ({ status: 200, data: { alive: true } }),
    }),
    customEndpoint({
      method: 'GET',
      path: '/readyz',
      config: quiet,
      tags: ['Operations'],
      summary: 'Readiness',
      description:
        'Whether this instance can serve: the database and, when REDIS_URL is set, Redis each answer a trivial request within HEALTH_CHECK_TIMEOUT_MS. 200 when all do; 503 otherwise, with one error `not_ready` per failing part (param `database` or `redis`). `data.checks` gives each part\'s status and time. From SIGTERM until the listener closes (SHUTDOWN_DRAIN_DELAY_MS) 503 with one error `not_ready`, param `shutdown`, and no checks.',
      response: { 200: ReadinessBody, 503: ReadinessBody },
      handler: (deps) => async (request, reply) => {
        const { ready, shuttingDown, checks } = await ops.readiness();
        if (ready) return { status: 200, data: { checks } };
        // Expected, and polled until the listener closes: no warning.
        if (shuttingDown) return reply.code(503).send({ ...errorsFor(deps.i18n, request, reply, 503, [{ code: 'not_ready', param: 'shutdown', message: msg('not_ready.shutting_down') }]), data: { checks } });
        const failing = Object.entries(checks).filter(([, check]) => check.status === 'failing');
        request.log.warn({ checks }, `not ready: ${failing.map(([name]) => name).join(', ')}`);
        const errors = failing.map(([name, check]) => ({ code: 'not_ready' as const, param: name, message: msg('not_ready.check', { check: name, error: check.status === 'failing' ? check.error : '' }) }));
        return reply.code(503).send({ ...errorsFor(deps.i18n, request, reply, 503, errors), data: { checks } });
      },
    }),
    // Only when metrics are served on this server (not off, not on their own port).
    customEndpoint({
      method: 'GET',
      path: '/metrics',
      config: quiet,
      hide: true,
      handler: () => {
        const registry = ops.metrics;
        if (!registry) return null;
        return async (_request, reply) => {
          const text = await registry.metrics();
          return reply.type(registry.contentType).send(text);
        };
      },
    }),
  ];
}
