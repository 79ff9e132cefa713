import { setTimeout as delay } from 'node:timers/promises';
import { configFromEnvironment, exitOnConfigError } from './config/from-environment.js';
import { ConfigError } from './config/config.js';
import { buildApp, type App } from './app.js';
import { createLogger, captureProcessOutput } from './observability/logger.js';
import { StartupError } from './store/reachable.js';

const config = configFromEnvironment();
const log = createLogger(config.logLevel);
// From here on stdout carries JSON lines only, whoever writes.
captureProcessOutput(log);
let app: App;
try {
  app = await buildApp(config, { logger: log });
} catch (error) {
  // Settings checked while wiring (a token strategy module, a JWT key) fail
  // as plainly as those read from the environment.
  if (error instanceof ConfigError) exitOnConfigError(error);
  // A database or Redis that stayed unreachable: one line naming the setting, no stack.
  if (error instanceof StartupError) {
    log.fatal({ setting: error.setting, target: error.target, failure: error.failure }, `Cannot start: ${error.message}`);
    process.exit(1);
  }
  log.fatal({ err: error }, 'Cannot start');
  process.exit(1);
}
let closing = false;
// A second signal ends the wait: a second Ctrl-C, a manager that will not wait.
const endDelay = new AbortController();
async function shutdown(signal: string): Promise<void> {
  if (closing) return endDelay.abort();
  closing = true;
  // Closing the listener resets the connections still in its accept queue.
  // Failing /readyz first while serving on lets the load balancer stop
  // sending; SIGINT is Ctrl-C at a terminal, with no load balancer to wait for.
  const delayMs = signal === 'SIGTERM' ? config.operations.shutdownDrainDelayMs : 0;
  app.beginShutdown();
  log.info({ signal, drain_delay_ms: delayMs }, 'shutting down');
  if (delayMs > 0) {
    await delay(delayMs, undefined, { signal: endDelay.signal }).catch(() => {});
    log.info({ signal }, 'closing the listener, draining the requests in flight');
  }
  await app.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
// A port taken or refused is a setting to fix: one line naming it, no stack.
async function listenOn(setting: string, host: string, port: number | undefined, listen: () => Promise<unknown>): Promise<void> {
  try {
    await listen();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'EADDRINUSE' && code !== 'EADDRNOTAVAIL' && code !== 'EACCES') throw error;
    const why = code === 'EADDRINUSE' ? 'is in use' : code === 'EACCES' ? 'is not allowed to this user' : 'is not an address of this machine';
    log.fatal({ setting, host, port, failure: code }, `Cannot start: ${host}:${port} ${why} (${setting})`);
    process.exit(1);
  }
}
await listenOn('HOST/PORT', config.host, config.port, () => app.http.listen({ host: config.host, port: config.port }));
await listenOn('METRICS_HOST/METRICS_PORT', config.operations.metrics.host, config.operations.metrics.port, () => app.listenMetrics());
await listenOn('ADMIN_HOST/ADMIN_PORT', config.admin.host, config.admin.port, () => app.listenAdmin());
