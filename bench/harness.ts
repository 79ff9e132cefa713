import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

// What every bench case shares: the server under test in a child process,
// autocannon runs with the server's CPU time per request, and the rounds
// that take turns so that a drifting machine favours no side. startServer
// runs bench/server.ts (the app through tsx, plus bench routes) for the
// login, MFA and metrics blocks; the hot-path block runs the compiled
// server instead (processes.ts).

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
export const PASSWORD = 'bench password 123';
/** Where the bench keeps its SQLite databases, removed by cleanUp(). */
export const dir = mkdtempSync(join(tmpdir(), 'auth-bench-'));

/** Every bench/server.ts started, so that cleanUp can wait for it to exit. */
const started: ChildProcess[] = [];

/**
 * Removes the servers' databases, once every bench/server.ts has exited
 * (stopped with SIGTERM if still running): removed while servers were still
 * closing their SQLite databases, the directory was once left half there.
 */
export async function cleanUp(): Promise<void> {
  await Promise.all(
    started.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => (child.kill('SIGKILL'), resolve()), 10_000);
          child.once('exit', () => (clearTimeout(timer), resolve()));
          if (!child.killed) child.kill('SIGTERM');
        }),
    ),
  );
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
  started.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec(chunk.toString());
      if (match) resolve({ child, base: `http://127.0.0.1:${match[1]}`, api: `http://127.0.0.1:${match[1]}/_service/app/v1` });
    });
  });
}

/** CPU time a server has used so far (µs): all its threads, and its main thread alone (NaN where unknown). */
export interface ServerCpu {
  all: number;
  main: number;
}

async function serverCpu(url: string): Promise<ServerCpu> {
  const usage = (await (await fetch(`${new URL(url).origin}/bench/cpu`)).json()) as { user: number; system: number; mainThread: number | null };
  return { all: usage.user + usage.system, main: usage.mainThread ?? NaN };
}

/** A measured run against bench/server.ts, which reports its own CPU time (GET /bench/cpu). */
export function load(opts: autocannon.Options): Promise<Figures> {
  const url = String(opts.url);
  return measure(opts, () => serverCpu(url));
}

/**
 * A measured run: autocannon for SECONDS, the server's CPU time read by
 * `cpu` before and after, divided by the requests answered. Errors are
 * failed requests and answers other than 2xx or, when `expected` is given
 * (say [401]), other than those statuses.
 */
export async function measure(opts: autocannon.Options, cpu: () => ServerCpu | Promise<ServerCpu>, expected: number[] = []): Promise<Figures> {
  const before = await cpu();
  const generatorBefore = process.cpuUsage();
  const result = await autocannon({ duration: SECONDS, connections: 32, ...opts });
  const generator = process.cpuUsage(generatorBefore);
  const after = await cpu();
  const served = Math.max(1, result.requests.total);
  let wrongAnswers = result.non2xx;
  if (expected.length > 0) {
    const counts = Object.entries((result.statusCodeStats ?? {}) as Record<string, { count?: number }>);
    wrongAnswers = counts.reduce((n, [status, { count = 0 }]) => n + (expected.includes(Number(status)) ? 0 : count), 0);
  }
  return {
    rps: result.requests.total / result.duration,
    p99: result.latency.p99,
    errors: result.errors + wrongAnswers,
    cpu: (after.all - before.all) / served,
    mainCpu: (after.main - before.main) / served,
    generatorCpu: (generator.user + generator.system) / served,
  };
}

/** An unmeasured run first, so that rounds compare optimised code, not V8 warming up. */
export async function warmUp(opts: autocannon.Options, seconds = 2): Promise<void> {
  await autocannon({ duration: seconds, connections: 32, ...opts });
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

export async function signUp(server: { api: string }): Promise<{ session_token: string; access_token?: string }> {
  const response = await fetch(`${server.api}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }),
  });
  return (await response.json()).meta;
}

/** The rounds' range and middle half. */
export function spread(xs: number[]): string {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.round(q * (sorted.length - 1))]!.toFixed(2);
  return `rounds ${at(0)}-${at(1)}, middle half ${at(0.25)}-${at(0.75)}`;
}
