import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

// What every bench case shares: the server under test in a child process,
// autocannon runs with the server's CPU time per request, and the rounds
// that take turns so that a drifting machine favours no side.

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
export const PASSWORD = 'bench password 123';
const dir = mkdtempSync(join(tmpdir(), 'auth-bench-'));

/** Removes the servers' databases. */
export function cleanUp(): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface Figures {
  rps: number;
  p99: number;
  errors: number;
  /** Server CPU time per request (µs): capacity, independent of the load generator. */
  cpu: number;
  /** The same for the server's main thread alone (µs; NaN where /proc is missing). */
  mainCpu: number;
  /** This process's CPU per request (µs): the load generator, which shares the machine. Only meaningful for one load at a time. */
  generatorCpu: number;
}

export interface Server {
  child: ChildProcess;
  base: string;
  api: string;
}

export function startServer(name: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts'], {
    env: {
      ...process.env,
      BENCH_PASSWORD: PASSWORD,
      NODE_ENV: 'production',
      // Production refuses the development defaults; the bench sends no mail that matters.
      FRONTEND_URL: 'https://bench.example.com',
      EMAIL_BACKEND: 'console',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
      DATABASE_URL: `sqlite:${join(dir, `${name}.sqlite3`)}`,
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
      if (match) resolve({ child, base: `http://127.0.0.1:${match[1]}`, api: `http://127.0.0.1:${match[1]}/_service/app/v1` });
    });
  });
}

async function serverCpu(url: string): Promise<{ all: number; main: number }> {
  const usage = (await (await fetch(`${new URL(url).origin}/bench/cpu`)).json()) as { user: number; system: number; mainThread: number | null };
  return { all: usage.user + usage.system, main: usage.mainThread ?? NaN };
}

export async function load(opts: autocannon.Options): Promise<Figures> {
  const url = String(opts.url);
  const before = await serverCpu(url);
  const generatorBefore = process.cpuUsage();
  const result = await autocannon({ duration: SECONDS, connections: 32, ...opts });
  const generator = process.cpuUsage(generatorBefore);
  const after = await serverCpu(url);
  const served = Math.max(1, result.requests.total);
  return {
    rps: result.requests.total / result.duration,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpu: (after.all - before.all) / served,
    mainCpu: (after.main - before.main) / served,
    generatorCpu: (generator.user + generator.system) / served,
  };
}

/** An unmeasured run first, so that rounds compare optimised code, not V8 warming up. */
export async function warmUp(opts: autocannon.Options): Promise<void> {
  await autocannon({ duration: 2, connections: 32, ...opts });
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** The round with the median rate, reported whole so that its figures belong together. */
export const medianRound = (fs: Figures[]) => [...fs].sort((a, b) => a.rps - b.rps)[Math.floor(fs.length / 2)]!;

/**
 * Runs each of `runs` back to back, starting one further along every round,
 * so that a drifting machine favours none of them. Results in `runs` order.
 */
export async function inTurn<T>(round: number, runs: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(runs.length);
  for (let k = 0; k < runs.length; k++) {
    const index = (round + k) % runs.length;
    results[index] = await runs[index]!();
  }
  return results;
}

/** Hello-world and `route`, ROUNDS pairs; the median of each and of the paired ratios. */
export async function versusHello(server: Server, route: autocannon.Options): Promise<{ hello: Figures; route: Figures; ratio: number; ratios: number[]; cpuRatio: number }> {
  const hellos: Figures[] = [];
  const routes: Figures[] = [];
  await warmUp({ url: `${server.base}/bench/hello` });
  await warmUp(route);
  for (let i = 0; i < ROUNDS; i++) {
    const [hello, measured] = await inTurn(i, [() => load({ url: `${server.base}/bench/hello` }), () => load(route)]);
    hellos.push(hello!);
    routes.push(measured!);
  }
  const pick = (fs: Figures[]): Figures => ({
    rps: median(fs.map((f) => f.rps)),
    p99: median(fs.map((f) => f.p99)),
    errors: fs.reduce((n, f) => n + f.errors, 0),
    cpu: median(fs.map((f) => f.cpu)),
    mainCpu: median(fs.map((f) => f.mainCpu)),
    generatorCpu: median(fs.map((f) => f.generatorCpu)),
  });
  const ratios = hellos.map((h, i) => routes[i]!.rps / h.rps);
  return {
    hello: pick(hellos),
    route: pick(routes),
    ratio: median(ratios),
    ratios,
    cpuRatio: median(hellos.map((h, i) => h.cpu / routes[i]!.cpu)),
  };
}

export async function signUp(server: Server): Promise<{ session_token: string; access_token?: string }> {
  const response = await fetch(`${server.api}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }),
  });
  return (await response.json()).meta;
}

