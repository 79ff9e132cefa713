import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort, startArgs } from '../processes.js';

// The server as deployed: the production entry point (compiled JavaScript
// when built, else the TypeScript through tsx), configured by environment.

export interface ScaleServer {
  name: string;
  child: ChildProcess;
  api: string;
  stop(): Promise<void>;
}

/** How the server is started: as `npm start` does once built (npm run build), else through tsx. */
export const serverCommand: string[] =
  existsSync('dist/main.js') && process.env.BENCH_SERVER !== 'tsx'
    ? startArgs
    : ['--import', 'tsx', 'src/main.ts'];

export async function startScaleServer(name: string, databaseUrl: string, env: Record<string, string> = {}): Promise<ScaleServer> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, serverCommand, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      FRONTEND_URL: 'https://bench.example.com',
      EMAIL_BACKEND: 'console',
      SECRET_KEY: 'scale-bench-secret-key-0123456789-abcdef',
      DATABASE_URL: databaseUrl,
      ACCOUNT_RATE_LIMITS: 'false',
      ACCOUNT_EMAIL_VERIFICATION: 'none',
      SESSION_ABSOLUTE_LIFETIME: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const api = `http://127.0.0.1:${port}/_service/app/v1`;
  for (const deadline = Date.now() + 120_000; ; ) {
    if (child.exitCode !== null) throw new Error(`${name} server exited with ${child.exitCode}: ${output}`);
    const up = await fetch(`${api}/config`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} server did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    child,
    api,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
