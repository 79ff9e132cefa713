import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from '../support/process-server.js';
import { serviceSkipReason } from '../support/services.js';
import { TEST_SECRET } from '../support/server.js';
import { describeUnlessSkipped } from '../support/suites.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { startProxiedServices, type ProxiedServices } from '../support/proxied-services.js';
import { RUN_TYPESCRIPT } from '../support/typescript.js';

// Issue 13 item 11: a start without a reachable database or Redis exited
// with a raw stack trace. A start now retries for DEPENDENCY_WAIT_SECONDS
// (the database may come up after the service), then exits with JSON lines
// only, the last naming the setting and what failed, never the credentials
// in the URL.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const skip = (await serviceSkipReason('PostgreSQL')) ?? (await serviceSkipReason('Redis'));

/** Runs the server until it exits by itself; its stdout lines (parsed) and stderr. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; lines: any[]; stdout: string; stderr: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'auth-startup-'));
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT, 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, PORT: '0', SECRET_KEY: TEST_SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => {
    child.once('close', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      const lines = stdout.split('\n').filter(Boolean).map((line) => {
        try {
          return JSON.parse(line);
        } catch {
          assert.fail(`not a JSON line: ${line}`);
        }
      });
      resolve({ code, lines, stdout, stderr });
    });
  });
}

describeUnlessSkipped('regression: start-up waits for PostgreSQL and Redis, then says what failed (issue 13 item 11)', skip, () => {
  let services: ProxiedServices;
  let proxy: TcpProxy;

  before(async () => {
    services = await startProxiedServices();
    proxy = services.pgProxy;
  });
  after(async () => {
    services?.release();
    await services?.close();
  });

  /** The test database through the proxy, with a password in the URL that must never be printed. */
  function proxiedUrl(): string {
    const url = new URL(services.databaseUrl);
    url.username = 'postgres';
    url.password = 'never-print-this-pw';
    return url.toString();
  }

  it('an unreachable database: retries, then exits non-zero with one fatal JSON line naming DATABASE_URL', async () => {
    proxy.refuse();
    try {
      const { code, lines, stdout, stderr } = await runToExit({ DATABASE_URL: proxiedUrl(), DEPENDENCY_WAIT_SECONDS: '2' });
      assert.notEqual(code, 0);
      assert.equal(stderr, '');
      const last = lines.at(-1);
      assert.equal(last.level, 'fatal');
      assert.equal(last.setting, 'DATABASE_URL');
      assert.equal(typeof last.failure, 'string');
      assert.match(last.target, new RegExp(`^127\\.0\\.0\\.1:${proxy.port}/`));
      assert.equal(lines.filter((l) => l.level === 'fatal').length, 1);
      assert.ok(lines.some((l) => l.level === 'warn' && l.setting === 'DATABASE_URL'), 'each miss is logged before giving up');
      assert.ok(!stdout.includes('never-print-this-pw'));
      assert.ok(!stdout.includes('"stack"'), 'no stack trace');
    } finally {
      proxy.accept();
    }
  });

  it('an unreachable Redis: the same, naming REDIS_URL', async () => {
    const { redisProxy } = services;
    redisProxy.refuse();
    try {
      const { code, lines, stdout, stderr } = await runToExit({
        DATABASE_URL: services.database.url,
        REDIS_URL: `redis://:never-print-this-pw@127.0.0.1:${redisProxy.port}`,
        DEPENDENCY_WAIT_SECONDS: '2',
      });
      assert.notEqual(code, 0);
      assert.equal(stderr, '');
      const last = lines.at(-1);
      assert.equal(last.level, 'fatal');
      assert.equal(last.setting, 'REDIS_URL');
      assert.equal(last.target, `127.0.0.1:${redisProxy.port}`);
      assert.ok(!stdout.includes('never-print-this-pw'));
    } finally {
      redisProxy.accept();
    }
  });

  it('a database that comes up after the service: the start waits for it and then serves', { timeout: 60_000 }, async () => {
    proxy.refuse();
    const refused = proxy.nextRefusal();
    const starting = startServerProcess({ DATABASE_URL: proxiedUrl(), SECRET_KEY: TEST_SECRET, DEPENDENCY_WAIT_SECONDS: '120' });
    // The server has tried and been turned away: now the database "comes up".
    await refused;
    proxy.accept();
    const server = await starting;
    try {
      const ready = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(ready.status, 200);
      // Log lines reach stdout in batches (at the latest 100 ms after they were logged).
      await server.waitForOutput((output) => output.includes('DATABASE_URL is not reachable yet'));
      assert.ok(!server.output().includes('never-print-this-pw'));
    } finally {
      await server.stop();
    }
  });
});
