import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { configFromEnvironment } from '../src/config/from-environment.js';
import { buildApp } from '../src/app.js';
import { hashPassword, verifyPassword } from '../src/security/passwords.js';

// The server under benchmark: the real app plus, in the same process, a bare
// hello-world route (the baseline every other figure is a ratio of) and the
// hash behind HTTP (below).
const app = await buildApp(configFromEnvironment(), { logger: false });
app.http.get('/bench/hello', async () => ({ hello: 'world' }));
// The floor under login: a validated JSON body whose password is verified,
// with no database and no login logic. Login can come no closer to the hash
// alone than this route does on the same machine.
const verifyAgainst = await hashPassword(process.env.BENCH_PASSWORD ?? '');
app.http.post(
  '/bench/verify',
  { schema: { body: { type: 'object', required: ['password'], properties: { password: { type: 'string' } } } } },
  // A mismatch answers 400, which the runner counts as an error.
  async (request, reply) => {
    const { ok } = await verifyPassword((request.body as { password: string }).password, verifyAgainst);
    return reply.code(ok ? 200 : 400).send({ ok });
  },
);
// CPU time this process has used, so the runner can divide it by requests
// served; on Linux also the main thread's alone (µs, in 10 ms ticks), the
// event loop's share of a login beside the hashing threads.
app.http.get('/bench/cpu', async () => ({ ...process.cpuUsage(), mainThread: mainThreadCpu() }));
function mainThreadCpu(): number | null {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}
await app.http.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`PORT ${(app.http.server.address() as AddressInfo).port}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void app.close().then(() => process.exit(0)));
