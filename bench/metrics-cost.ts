import { pathToFileURL } from 'node:url';
import { ROUNDS, SECONDS, cleanUp, inTurn, load, median, signUp, startServer, warmUp, type Figures } from './harness.js';

// What Prometheus metrics cost: GET /auth/session (whoami, the cheapest
// authenticated request, so where a fixed cost per request weighs most) on
// two servers alike but for METRICS_ENABLED, measured in turns. Target:
// with metrics, at least 95 % of the throughput without.

export async function measureMetricsCost(): Promise<number> {
  const [on, off] = await Promise.all([startServer('metrics-on', {}), startServer('metrics-off', { METRICS_ENABLED: 'false' })]);
  try {
    const whoami = async (server: typeof on) => ({ url: `${server.api}/auth/session`, headers: { 'x-session-token': (await signUp(server)).session_token } });
    const [withMetrics, without] = await Promise.all([whoami(on), whoami(off)]);
    await warmUp(withMetrics);
    await warmUp(without);
    const ons: Figures[] = [];
    const offs: Figures[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b] = await inTurn(i, [() => load(withMetrics), () => load(without)]);
      ons.push(a!);
      offs.push(b!);
    }
    const ratios = ons.map((f, i) => f.rps / offs[i]!.rps);
    const cpuRatios = ons.map((f, i) => offs[i]!.cpu / f.cpu);
    const ratio = median(ratios);
    const errors = [...ons, ...offs].reduce((n, f) => n + f.errors, 0);
    console.log(`\nMetrics cost, GET /auth/session (X-Session-Token); ${ROUNDS} rounds of ${SECONDS} s, medians`);
    console.log(`  with metrics:    ${median(ons.map((f) => f.rps)).toFixed(0)} req/s, ${median(ons.map((f) => f.cpu)).toFixed(1)} us CPU/req`);
    console.log(`  without metrics: ${median(offs.map((f) => f.rps)).toFixed(0)} req/s, ${median(offs.map((f) => f.cpu)).toFixed(1)} us CPU/req`);
    console.log(`  cpu without / with: ${median(cpuRatios).toFixed(3)}; errors: ${errors}`);
    const met = ratio >= 0.95;
    console.log(`${'whoami with / without metrics'.padEnd(40)}${ratio.toFixed(3).padStart(8)}  target >= 0.95    ${(met ? 'met' : 'MISSED').padEnd(7)} rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`);
    return ratio;
  } finally {
    on.child.kill('SIGTERM');
    off.child.kill('SIGTERM');
  }
}

// `npm run bench:metrics` runs this case alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await measureMetricsCost();
  await cleanUp();
}
