import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npx headless-auth`, the documented command, in a checkout: npm links the
// checkout into its npx cache and runs its prepare script, which must leave
// dist/ as it is (no build under a running server, none of a build's time),
// and the CLI that runs is the dist/ there is. The checkout here is a copy
// of what npm reads (package.json's name, bin and prepare, bin/, scripts/)
// with a stand-in for the compiled CLI; npm's cache is a folder of its own,
// and npm stays offline.

const ROOT = new URL('../../', import.meta.url).pathname;

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, output })));
}

describe('npx headless-auth in a checkout', () => {
  let dir: string;
  let checkout: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'npx-'));
    checkout = join(dir, 'checkout');
    mkdirSync(join(checkout, 'dist', 'cli'), { recursive: true });
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    writeFileSync(join(checkout, 'package.json'), JSON.stringify({ name: pkg.name, version: pkg.version, type: pkg.type, bin: pkg.bin, scripts: { prepare: pkg.scripts.prepare } }));
    cpSync(join(ROOT, 'bin'), join(checkout, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'scripts'), join(checkout, 'scripts'), { recursive: true });
    // What a build would use; the run must not start one.
    cpSync(join(ROOT, 'tsconfig.build.json'), join(checkout, 'tsconfig.build.json'));
    mkdirSync(join(checkout, 'node_modules'));
    symlinkSync(join(ROOT, 'node_modules', 'typescript'), join(checkout, 'node_modules', 'typescript'));
    writeFileSync(join(checkout, 'dist', 'cli', 'main.js'), "console.log('the built CLI ran with', process.argv.slice(2).join(' '));\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the built CLI as it is, without building dist/', async () => {
    const env = { npm_config_cache: join(dir, 'npm-cache'), npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_yes: 'true' };
    for (const attempt of ['first run', 'second run']) {
      const result = await run('npx', ['headless-auth', 'users', 'list'], checkout, env);
      assert.equal(result.status, 0, `${attempt}: ${result.output}`);
      assert.match(result.output, /the built CLI ran with users list/, attempt);
      assert.deepEqual(readdirSync(join(checkout, 'dist')), ['cli'], `${attempt}: dist/ was rebuilt`);
      assert.deepEqual(readdirSync(join(checkout, 'dist', 'cli')), ['main.js'], `${attempt}: dist/ was rebuilt`);
    }
  });
});
