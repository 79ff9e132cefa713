import { configFromEnvironment } from './config/from-environment.js';
import { buildApp } from './app.js';

const config = configFromEnvironment();
const app = await buildApp(config);
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
