import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { RUN_TYPESCRIPT } from './typescript.js';

// A server as deployed: `node src/main.ts` in its own process, with npm
// start's node flags (so each Node the suite runs on is shown to accept
// them), configured by environment only. Used where one process is not
// enough to prove a point.

const startFlags = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--'));

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves once the output so far satisfies `done`; rejects if the process exits first. */
  waitForOutput(done: (output: string) => boolean): Promise<void>;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (a neighbour may still take it before it is used). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [...startFlags, ...RUN_TYPESCRIPT, 'src/main.ts'], {
    // No load balancer to wait for: stop() exits at once unless a test asks for the delay.
    env: { ...process.env, LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_DELAY_MS: '0', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    try {
      const response = await fetch(`${baseUrl}/_service/app/v1/config`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running: an orphaned child would hold the test file open until it is killed by hand.
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    child,
    output: () => output,
    waitForOutput: (done) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!done(output)) return;
          child.stdout!.off('data', check);
          child.off('exit', exited);
          resolve();
        };
        const exited = () => {
          child.stdout!.off('data', check);
          reject(new Error(`server exited while the test waited for its output: ${output}`));
        };
        child.stdout!.on('data', check);
        child.once('exit', exited);
        check();
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
