import type { AddressInfo } from 'node:net';
import { configFromEnvironment } from '../src/config/from-environment.js';
import { buildApp } from '../src/app.js';

// The server under benchmark: the real app plus a bare hello-world route in
// the same process, the baseline every other figure is a ratio of.
const app = await buildApp(configFromEnvironment(), { logger: false });
app.http.get('/bench/hello', async () => ({ hello: 'world' }));
// CPU time this process has used, so the runner can divide it by requests served.
app.http.get('/bench/cpu', async () => process.cpuUsage());
await app.http.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`PORT ${(app.http.server.address() as AddressInfo).port}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void app.close().then(() => process.exit(0)));
