import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../support/process-server.js';

// SIGTERM as a deployment sends it: the process stops taking new work, lets
// the requests it has started finish, and exits cleanly.
describe('graceful shutdown without a drain delay', () => {
  let dir: string;
  let server: ServerProcess;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    server = await startServerProcess({
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite3')}`,
      SECRET_KEY: 'shutdown-test-secret-key-0123456789abcdef',
      ACCOUNT_EMAIL_VERIFICATION: 'none',
      ACCOUNT_RATE_LIMITS: 'false',
      // The listener closes as the signal arrives.
      SHUTDOWN_DRAIN_DELAY_MS: '0',
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

function startServer(dir: string, delayMs: number): Promise<ServerProcess> {
  return startServerProcess({
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite3')}`,
    SECRET_KEY: 'shutdown-test-secret-key-0123456789abcdef',
    SHUTDOWN_DRAIN_DELAY_MS: String(delayMs),
    LOG_LEVEL: 'info',
  });
}

/** The process's JSON log lines whose message is `msg`. */
function logLines(server: ServerProcess, msg: string): Array<{ time: string; drain_delay_ms?: number }> {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((line) => line.msg === msg);
}

/** A GET on a connection of its own: its status, or the error that ended it (ECONNRESET, ...). */
function getOnNewConnection(url: string, connected: () => void): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('socket', (socket) => socket.once('connect', connected));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

// SIGTERM used to close the listener at once: connections the kernel had
// already accepted for it, still in its queue, were reset (1-6 of a burst of
// 20). Now /readyz fails first, so the load balancer stops sending, and the
// server keeps accepting and answering for SHUTDOWN_DRAIN_DELAY_MS.
describe('regression: SIGTERM resets the connections in the accept queue', () => {
  let dir: string;
  let server: ServerProcess;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shutdown-delay-'));
    // Longer than the test: a second signal ends the wait once it has seen what it needs.
    server = await startServer(dir, 120_000);
  });
  after(async () => {
    // Stopped, a failed test's process would not see the SIGTERM that stops it.
    server.child.kill('SIGCONT');
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails /readyz, answers every connection opened as SIGTERM arrives and keeps serving until a second signal', async () => {
    const config = `${server.baseUrl}/_service/app/v1/config`;
    assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
    // The burst waits in the accept queue of a stopped process, which finds
    // it there together with SIGTERM once it continues.
    server.child.kill('SIGSTOP');
    let connected = 0;
    let queued!: () => void;
    const allQueued = new Promise<void>((resolve) => (queued = resolve));
    const burst = Array.from({ length: 20 }, () => getOnNewConnection(config, () => ++connected === 20 && queued()));
    // A connection refused would never report: its error ends the wait as well.
    await Promise.race([allQueued, Promise.all(burst)]);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    server.child.kill('SIGCONT');
    assert.deepEqual(await Promise.all(burst), Array(20).fill(200));

    await server.waitForOutput(() => logLines(server, 'shutting down').length === 1);
    assert.equal(logLines(server, 'shutting down')[0]!.drain_delay_ms, 120_000);
    const readyz = await fetch(`${server.baseUrl}/readyz`);
    assert.equal(readyz.status, 503);
    const body = (await readyz.json()) as { errors: Array<{ code: string; param: string }>; data: { checks: object } };
    assert.deepEqual(body.errors.map((e) => [e.code, e.param]), [['not_ready', 'shutdown']]);
    assert.deepEqual(body.data.checks, {});
    // Other requests are served, each on a connection closed after its answer.
    const served = await fetch(config);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('connection'), 'close');
    assert.equal(await getOnNewConnection(config, () => {}), 200);
    assert.equal(server.child.exitCode, null);
    assert.equal(logLines(server, 'closing the listener, draining the requests in flight').length, 0);

    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGINT');
    assert.equal(await exited, 0);
    assert.equal(logLines(server, 'closing the listener, draining the requests in flight').length, 1);
    assert.ok(Date.now() - signalled < 60_000, `exited ${Date.now() - signalled} ms after SIGTERM`);
  });
});

describe('graceful shutdown with a drain delay', () => {
  let dir: string;
  let server: ServerProcess;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shutdown-delay-'));
    server = await startServer(dir, 300);
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('closes the listener once SHUTDOWN_DRAIN_DELAY_MS has passed, drains and exits with 0', async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    assert.equal(await exited, 0);
    const [began] = logLines(server, 'shutting down');
    const [closed] = logLines(server, 'closing the listener, draining the requests in flight');
    assert.ok(began && closed, server.output());
    const waited = Date.parse(closed.time) - Date.parse(began.time);
    assert.ok(waited >= 300, `the listener closed ${waited} ms after SIGTERM`);
  });
});
