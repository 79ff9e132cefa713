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
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'shutting down');
  await app.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
await app.http.listen({ host: config.host, port: config.port });
await app.listenMetrics();
