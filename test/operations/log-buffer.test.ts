import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe } from 'node:test';
import { RUN_TYPESCRIPT } from '../support/typescript.js';

// The log buffers lines in memory and writes them in batches (issue 23):
// nothing may be lost when the process ends, however it ends, and a quiet
// process's lines must still come out without waiting for more.

const CHILD = new URL('../support/log-child.ts', import.meta.url).pathname;

function run(mode: string, lines: number) {
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT, CHILD, mode, String(lines)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const received: number[] = [];
  const reader = createInterface({ input: child.stdout });
  reader.on('line', (line) => {
    const parsed = JSON.parse(line) as { msg: string; i?: number };
    if (parsed.msg === 'line') received.push(parsed.i!);
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, received, reader, exited };
}

describe('buffered log output', () => {
  it('writes every line, in order, when the process calls process.exit', async () => {
    const { received, exited } = run('exit', 20_000);
    assert.equal(await exited, 0);
    assert.deepEqual(received, Array.from({ length: 20_000 }, (_, i) => i));
  });

  it('writes every line when the process dies of an uncaught error', async () => {
    const { received, exited } = run('fatal', 5_000);
    assert.equal(await exited, 1);
    assert.equal(received.length, 5_000);
  });

  it('writes the lines of a process that logs once and goes quiet, without waiting for more', async () => {
    const { child, received, reader } = run('idle', 3);
    await new Promise<void>((resolve) => reader.on('line', () => received.length === 3 && resolve()));
    assert.deepEqual(received, [0, 1, 2]);
    child.kill();
  });
});
