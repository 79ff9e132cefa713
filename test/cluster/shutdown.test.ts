import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../support/process-server.js';

// SIGTERM as a deployment sends it: the process stops taking new work, lets
// the requests it has started finish, and exits cleanly.
describe('graceful shutdown', () => {
  let dir: string;
  let server: ServerProcess;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    server = await startServerProcess({
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite3')}`,
      SECRET_KEY: 'shutdown-test-secret-key-0123456789abcdef',
      ACCOUNT_EMAIL_VERIFICATION: 'none',
      ACCOUNT_RATE_LIMITS: 'false',
      // Each request is logged as it arrives: the test signals once all have.
      LOG_LEVEL: 'trace',
    });
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the logins in flight when SIGTERM arrives, then exits with 0', async () => {
    const api = `${server.baseUrl}/_service/app/v1`;
    const credentials = JSON.stringify({ email: 'drain@example.com', password: 'a long secret phrase' });
    const post = (path: string) => fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: credentials });
    assert.equal((await post('/auth/signup')).status, 200);
    // Each login costs a full password hash and only a few run at once, so
    // most of these are still in flight when the signal comes. It comes once
    // the server has logged the arrival of every one: a request still in the
    // listen backlog when the listener closes is refused (the first answer
    // was no sign of that: a fresh clone failed with fetch failed).
    const received = () => server.output().split('\n').filter((line) => line.includes('"request received"') && line.includes('/auth/login"')).length;
    const logins = Array.from({ length: 12 }, () => post('/auth/login').then((r) => r.status, (error: Error) => error.message));
    await server.waitForOutput(() => received() === 12);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    assert.deepEqual(await Promise.all(logins), Array(12).fill(200));
    assert.equal(await exited, 0);
    // Not after the clients' idle keep-alive connections time out (72 s).
    assert.ok(Date.now() - signalled < 20_000, `exited ${Date.now() - signalled} ms after SIGTERM`);
  });
});
