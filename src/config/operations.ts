import { readBool, readInt, readString, type Env } from './env.js';

// Health, metrics, shutdown and what the operator tunes about them.

export interface OperationsSettings {
  metrics: {
    /** METRICS_ENABLED: collect and serve Prometheus metrics. */
    enabled: boolean;
    /** METRICS_PORT: serve /metrics on this port only, not on the public one. */
    port: number | undefined;
    host: string;
  };
  /** HEALTH_CHECK_TIMEOUT_MS: how long /readyz waits for each dependency. */
  healthCheckTimeoutMs: number;
  /** SHUTDOWN_DRAIN_DELAY_MS: how long SIGTERM keeps serving with /readyz failing before the listener closes. */
  shutdownDrainDelayMs: number;
}

export function readOperations(env: Env, host: string): OperationsSettings {
  const port = readString(env, 'METRICS_PORT', '') === '' ? undefined : readInt(env, 'METRICS_PORT', 0, { min: 0, max: 65535 });
  return {
    metrics: { enabled: readBool(env, 'METRICS_ENABLED', true), port, host: readString(env, 'METRICS_HOST', host) },
    healthCheckTimeoutMs: readInt(env, 'HEALTH_CHECK_TIMEOUT_MS', 500, { min: 10, max: 60_000 }),
    // Long enough for a load balancer polling /readyz every second to see
    // a few failures and stop sending; well within Docker's 10 s stop timeout.
    shutdownDrainDelayMs: readInt(env, 'SHUTDOWN_DRAIN_DELAY_MS', 5000, { min: 0, max: 120_000 }),
  };
}
