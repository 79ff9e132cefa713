import { configFromEnvironment } from './config/from-environment.js';
import { ConfigError } from './config/config.js';
import { buildApp, type App } from './app.js';

const config = configFromEnvironment();
let app: App;
try {
  app = await buildApp(config);
} catch (error) {
  // Settings checked while wiring (a token strategy module, a JWT key) fail
  // as plainly as those read from the environment.
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
  throw error;
}
let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.http.log.info({ signal }, 'shutting down');
  await app.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
await app.http.listen({ host: config.host, port: config.port });
