import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dir, type ServerCpu } from './harness.js';

// Servers as deployed, in child processes of their own: the compiled server
// started as `npm start` starts it, and the hello-world baselines with the
// same node and the same flags. Their CPU time and resident memory are read
// from /proc, so the server under test answers no request of the bench's
// own and runs no bench code.

/** `npm start`'s node arguments, read from package.json: the flags, then dist/main.js. */
export const startArgs: string[] = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.trim().split(/\s+/).slice(1);
/** The node flags alone (npm start's V8 heap settings), which the baselines get too. */
export const nodeFlags: string[] = startArgs.filter((arg) => arg.startsWith('-'));

/** Clock ticks per second of /proc/<pid>/stat's times (getconf CLK_TCK; 100 if that fails). */
export const clockTicks: number = (() => {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
    return ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a /proc stat line, µs. */
function statCpu(path: string): number {
  const line = readFileSync(path, 'utf8');
  // After "pid (comm) ": state is field 3, utime field 14, stime field 15.
  const fields = line.slice(line.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks;
}

/** CPU time a process has used: every thread, and its main thread (the event loop) alone. */
export function processCpu(pid: number): ServerCpu {
  return { all: statCpu(`/proc/${pid}/stat`), main: statCpu(`/proc/${pid}/task/${pid}/stat`) };
}

/** Resident set size of a process, MiB (VmRSS). */
export function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

export interface Pinning {
  server: string;
  generator: string;
}

let pinning: Pinning | null = null;

/**
 * Pins the bench (the load generator) to all cores but the last and every
 * server started from now on to the last, so that the two never share a core
 * and a server's CPU per request is not swayed by the scheduler moving it
 * about. Needs two cores and taskset; answers null (nothing pinned) otherwise.
 */
export function pinToCores(): Pinning | null {
  const cores = availableParallelism();
  if (cores < 2) return null;
  const generator = cores === 2 ? '0' : `0-${cores - 2}`;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', generator, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return (pinning = { server: String(cores - 1), generator });
}

/** Undoes pinToCores for the bench (servers started meanwhile stay where they are). */
export function releaseCores(): void {
  if (!pinning) return;
  pinning = null;
  execFileSync('taskset', ['-a', '-p', '-c', `0-${availableParallelism() - 1}`, String(process.pid)], { stdio: 'ignore' });
}

/** `command <args>` on the cores pinToCores gave to `role` (as it is when nothing is pinned). */
function onCores(role: keyof Pinning, command: string, args: string[]): [string, string[]] {
  return pinning ? ['taskset', ['-c', pinning[role], command, ...args]] : [command, args];
}

/** The command that runs `node <args>` on the servers' core. */
function nodeCommand(args: string[]): [string, string[]] {
  return onCores('server', process.execPath, args);
}

/**
 * wrk, where it is installed: a load generator in C that costs a fraction of autocannon's CPU per request.
 * Its default timeout (2 s) would drop the answers of a server slowed by a busy database; 10 s keeps them.
 */
const wrk: string | null = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v wrk']).toString().trim() || null;
  } catch {
    return null;
  }
})();

const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** What loads the servers in paired runs (loadFromChild). */
export const childLoadGenerator = wrk ? 'wrk' : 'autocannon (a process of its own)';

/** What a child's load got back: requests answered, and how many of them with a status outside 2xx and 3xx. */
export interface ChildLoad {
  answered: number;
  non2xx: number;
}

/** What a child load sends: GET unless a method is given; a body goes with it as is. */
export interface ChildTarget {
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
}

/** wrk takes a method and a body only from a Lua script: one per distinct request, written once. */
const wrkScripts = new Map<string, string>();
function wrkScript(target: ChildTarget): string {
  const lua = [`wrk.method = ${JSON.stringify(target.method ?? 'GET')}`, ...(target.body === undefined ? [] : [`wrk.body = ${JSON.stringify(target.body)}`])].join('\n');
  let path = wrkScripts.get(lua);
  if (!path) {
    path = join(dir, `wrk-${wrkScripts.size}.lua`);
    writeFileSync(path, `${lua}\n`);
    wrkScripts.set(lua, path);
  }
  return path;
}

/**
 * A load from a process of its own, on the bench's cores when pinned: wrk
 * where installed, autocannon's command otherwise. Two such loads run side by
 * side without sharing an event loop.
 */
export function loadFromChild(target: ChildTarget, connections: number, seconds: number): Promise<ChildLoad> {
  const headers = Object.entries(target.headers ?? {});
  const posts = target.method !== undefined && target.method !== 'GET';
  const [command, args] = wrk
    ? [wrk, ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', ...(posts ? ['-s', wrkScript(target)] : []), ...headers.flatMap(([k, v]) => ['-H', `${k}: ${v}`]), target.url]]
    : [
        process.execPath,
        [autocannonCli, '-j', '-c', String(connections), '-d', String(seconds), ...(posts ? ['-m', target.method!, '-b', target.body ?? ''] : []), ...headers.flatMap(([k, v]) => ['-H', `${k}=${v}`]), target.url],
      ];
  return new Promise((resolve, reject) => {
    const child = spawn(...onCores('generator', command, args), { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      let load: ChildLoad;
      if (wrk) {
        // wrk names the non-2xx/3xx answers only when there were some.
        load = { answered: Number(/(\d+) requests in/.exec(output)?.[1]), non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0) };
      } else {
        const json = JSON.parse(output || '{}') as { requests?: { total?: number }; non2xx?: number };
        load = { answered: Number(json.requests?.total), non2xx: json.non2xx ?? 0 };
      }
      if (!load.answered) return reject(new Error(`${command} gave no request count: ${output.slice(0, 500)}`));
      resolve(load);
    });
  });
}

/** A port nothing listens on right now, for a child to listen on. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Process {
  name: string;
  child: ChildProcess;
  pid: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  cpu(): ServerCpu;
  rss(): number;
  /** SIGINT (the server's shutdown without the drain delay SIGTERM waits), then the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` with PORT set to a free port and waits until
 * GET `readyPath` answers 200. Its output goes to /dev/null: the server under
 * test writes its access log as in production, and the bench spends no CPU
 * reading it. Should the process exit before it answers, it is started once
 * more with its output captured, to say why.
 */
export async function startProcess(name: string, args: string[], env: Record<string, string>, readyPath: string): Promise<Process> {
  const port = await freePort();
  const fullEnv = { ...process.env, ...env, PORT: String(port) };
  const [command, commandArgs] = nodeCommand(args);
  const child = spawn(command, commandArgs, { env: fullEnv, stdio: 'ignore' });
  const origin = `http://127.0.0.1:${port}`;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (const deadline = Date.now() + 120_000; ; ) {
    if (exited) throw new Error(`${name} exited before it answered (${child.exitCode ?? child.signalCode}):\n${await outputOf(args, fullEnv)}`);
    const up = await fetch(`${origin}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer ${readyPath} within 120 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pid = child.pid!;
  return {
    name,
    child,
    pid,
    origin,
    cpu: () => processCpu(pid),
    rss: () => rssMiB(pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGINT');
      }),
  };
}

/** The output of a run of `node <args>` that is expected to fail at start-up (at most 30 s of it). */
function outputOf(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(output.slice(-4000));
    });
  });
}
