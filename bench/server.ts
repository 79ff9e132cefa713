import type { AddressInfo } from 'node:net';
import { configFromEnvironment } from '../src/config/from-environment.js';
import { buildApp } from '../src/app.js';

// The server under benchmark: the real app plus a bare hello-world route in
// the same process, the baseline every other figure is a ratio of.
const app = await buildApp(configFromEnvironment(), { logger: false });
app.http.get('/bench/hello', async () => ({ hello: 'world' }));
await app.http.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`PORT ${(app.http.server.address() as AddressInfo).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
