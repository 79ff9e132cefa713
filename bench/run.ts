import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

// `npm run bench`: throughput and latency of the real server on SQLite, each
// figure also as a ratio of a hello-world route served by the same process.
// Targets (issue 2): whoami >= 0.6x hello; login >= 90 % of the hash alone;
// GET /config p99 < 20 ms while logins saturate the CPU.

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const dir = mkdtempSync(join(tmpdir(), 'auth-bench-'));
const PASSWORD = 'bench password 123';

interface Figures {
  rps: number;
  p99: number;
  errors: number;
}

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
      DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite3')}`,
      ACCOUNT_RATE_LIMITS: 'false',
      ACCOUNT_EMAIL_VERIFICATION: 'none',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec(chunk.toString());
      if (match) resolve({ child, base: `http://127.0.0.1:${match[1]}` });
    });
  });
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function load(opts: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ duration: DURATION, connections: 32, ...opts });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function post(url: string, body: unknown): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return response.json();
}

const hashAlone = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'bench/hash-alone.ts', String(DURATION)]).toString()) as { perSecond: number };

const { child, base } = await startServer({});
const api = `${base}/_service/app/v1`;
const signup = await post(`${api}/auth/signup`, { email: 'bench@example.com', password: PASSWORD });
const token: string = signup.meta.session_token;
const loginBody = JSON.stringify({ email: 'bench@example.com', password: PASSWORD });
const loginRequest = { method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: loginBody };

const rows: Array<[string, Figures]> = [];
const hello = await load({ url: `${base}/bench/hello` });
rows.push(['hello-world', hello]);
rows.push(['GET /config', await load({ url: `${api}/config` })]);
const whoami = await load({ url: `${api}/auth/session`, headers: { 'x-session-token': token } });
rows.push(['GET /auth/session (app token)', whoami]);
const loginOnly = await load({ url: `${api}/auth/login`, connections: 8, ...loginRequest });
rows.push(['POST /auth/login', loginOnly]);
const [loginLoaded, configLoaded] = await Promise.all([
  load({ url: `${api}/auth/login`, connections: 16, ...loginRequest }),
  load({ url: `${api}/config`, connections: 4 }),
]);
rows.push(['POST /auth/login (with /config)', loginLoaded]);
rows.push(['GET /config (during logins)', configLoaded]);
const rss = rssMiB(child.pid!);
child.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });

console.log(`\nBenchmark: ${DURATION}s per run, SQLite, app client, same machine as the load generator\n`);
console.log('scenario'.padEnd(34) + 'req/s'.padStart(10) + 'p99 ms'.padStart(9) + 'x hello'.padStart(9) + 'errors'.padStart(8));
for (const [name, f] of rows) {
  console.log(name.padEnd(34) + f.rps.toFixed(0).padStart(10) + f.p99.toFixed(1).padStart(9) + (f.rps / hello.rps).toFixed(2).padStart(9) + String(f.errors).padStart(8));
}
console.log(`\npassword hash alone: ${hashAlone.perSecond.toFixed(1)} verifications/s`);
console.log(`server RSS after the runs: ${rss.toFixed(0)} MiB\n`);
const targets: Array<[string, number, string, boolean]> = [
  ['whoami / hello-world', whoami.rps / hello.rps, '>= 0.60', whoami.rps / hello.rps >= 0.6],
  ['login / hash alone', loginOnly.rps / hashAlone.perSecond, '>= 0.90', loginOnly.rps / hashAlone.perSecond >= 0.9],
  ['GET /config p99 during logins (ms)', configLoaded.p99, '< 20', configLoaded.p99 < 20],
];
for (const [name, value, goal, met] of targets) {
  console.log(`${name.padEnd(38)}${value.toFixed(2).padStart(8)}  target ${goal.padEnd(8)} ${met ? 'met' : 'MISSED'}`);
}
