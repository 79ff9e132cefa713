import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/process-server.js';
import { TEST_SECRET } from '../support/server.js';
import { RUN_TYPESCRIPT } from '../support/typescript.js';

// A server whose port is taken, the admin listener's or the public one's:
// `node src/main.ts` says so in one line naming the address and the
// setting, and exits with 1, rather than dying on a stack trace.

async function start(env: Record<string, string>): Promise<{ status: number | null; lines: string[] }> {
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT, 'src/main.ts'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { status, lines: output.split('\n').filter((line) => line.trim() !== '') };
}

describe('a port in use at start', () => {
  let dir: string;
  let taken: net.Server;
  let port: number;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'start-'));
    taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('is one line naming the address and the setting, and exit status 1', async () => {
    // A database each: the two start at once, and neither may meet the other's migrations.
    const base = (name: string) => ({ DATABASE_URL: `sqlite:${join(dir, `${name}.sqlite3`)}`, SECRET_KEY: TEST_SECRET, HOST: '127.0.0.1' });
    const cases = [
      { setting: 'ADMIN_HOST/ADMIN_PORT', env: { ...base('admin'), PORT: String(await freePort()), ADMIN_PORT: String(port) } },
      { setting: 'HOST/PORT', env: { ...base('public'), PORT: String(port) } },
    ];
    const runs = await Promise.all(cases.map(({ env }) => start(env)));
    cases.forEach(({ setting }, i) => {
      const { status, lines } = runs[i]!;
      assert.equal(status, 1, lines.join('\n'));
      assert.equal(lines.length, 1, lines.join('\n'));
      const line = JSON.parse(lines[0]!);
      assert.equal(line.level, 'fatal');
      assert.equal(line.setting, setting, lines[0]);
      assert.equal(line.failure, 'EADDRINUSE');
      assert.ok(line.msg.includes(`127.0.0.1:${port}`) && line.msg.includes(setting), line.msg);
      assert.equal(line.err, undefined, 'no stack');
    });
  });
});
