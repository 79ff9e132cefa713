import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { ApiClient, type ApiResponse } from '../support/client.js';
import type { TestDatabase } from '../support/databases.js';
import { startServerProcess, type ServerProcess } from '../support/process-server.js';
import { REDIS_URL, serviceSkipReason } from '../support/services.js';
import { TEST_SECRET } from '../support/server.js';
import { describeUnlessSkipped } from '../support/suites.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { startProxiedServices, type ProxiedServices } from '../support/proxied-services.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';

// Issue 13 items 1, 3, 4 and 12: a server process on PostgreSQL and Redis,
// each behind a proxy the test owns, loses them in every way a deployment
// does: backends terminated, connections killed, the peer frozen, the peer
// down. Each time the requests that depended on it get a JSON 503 with
// Retry-After (a login never passes a rate limit it could not read), the
// process lives on, its output stays JSON, and it serves again by itself
// once the dependency is back.

const skip = (await serviceSkipReason('PostgreSQL')) ?? (await serviceSkipReason('Redis'));

const STATEMENT_TIMEOUT_MS = 1000;
const REDIS_COMMAND_TIMEOUT_MS = 500;

describeUnlessSkipped('regression: the service survives losing PostgreSQL and Redis (issue 13 items 1, 3, 4, 12)', skip, () => {
  let services: ProxiedServices;
  let database: TestDatabase;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let server: ServerProcess;

  before(async () => {
    services = await startProxiedServices();
    ({ database, pgProxy, redisProxy } = services);
    server = await startServerProcess({
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: services.redisUrl,
      SECRET_KEY: TEST_SECRET,
      ACCOUNT_EMAIL_VERIFICATION: 'none',
      // The reference's limits, counted in Redis; each test logs in from an address of its own.
      ACCOUNT_RATE_LIMITS: '{}',
      TRUSTED_PROXY_COUNT: '1',
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      REDIS_COMMAND_TIMEOUT_MS: String(REDIS_COMMAND_TIMEOUT_MS),
      REDIS_CONNECT_TIMEOUT_MS: '1000',
      LOG_LEVEL: 'info',
    });
  });
  after(async () => {
    services?.release();
    await server?.stop();
    await services?.close();
  });

  /** An app client with an address of its own, and an account logged in. */
  async function account(): Promise<{ client: ApiClient; headers: Record<string, string>; email: string }> {
    const headers = { 'x-forwarded-for': `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}` };
    const client = new ApiClient(server.baseUrl, 'app');
    const email = uniqueEmail('loss');
    const signup = await client.post('/auth/signup', { email, password: PASSWORD }, headers);
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    return { client, headers, email };
  }

  const login = (email: string, headers: Record<string, string>) => new ApiClient(server.baseUrl, 'app').post('/auth/login', { email, password: PASSWORD }, headers);

  function assertUnavailable(response: ApiResponse): void {
    assert.equal(response.status, 503, JSON.stringify(response.body));
    assert.deepEqual(response.body.errors.map((e: { code: string }) => e.code), ['service_unavailable']);
    assert.ok(Number(response.headers.get('retry-after')) >= 1, 'Retry-After');
  }

  /** Repeats `request` until it answers 200; every other answer must be the JSON 503. Resolves with the ms it took. */
  async function recovers(request: () => Promise<ApiResponse>): Promise<number> {
    const started = Date.now();
    for (;;) {
      const response = await request();
      if (response.status === 200) return Date.now() - started;
      assertUnavailable(response);
      assert.ok(Date.now() - started < 30_000, 'not serving again within 30 s of the dependency being back');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('PostgreSQL backends terminated: the request waiting on one gets a JSON 503, the process lives on and serves again', async () => {
    const { client, headers, email } = await account();
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      // The login's last write waits on this lock, so the login is in flight on a backend when it is terminated.
      await admin.query('BEGIN');
      await admin.query('SELECT u.id FROM users u JOIN email_addresses e ON e.user_id = u.id WHERE e.email_lower = $1 FOR UPDATE', [email.toLowerCase()]);
      const pending = login(email, headers);
      for (;;) {
        const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      assertUnavailable(await pending);
      await admin.query('ROLLBACK');
    } finally {
      await admin.end();
    }
    assert.equal(server.child.exitCode, null, 'the process is still running');
    await recovers(() => client.get('/auth/session', headers));
    assert.equal((await login(email, headers)).status, 200);
  });

  it('PostgreSQL frozen: a JSON 503 within the statement timeout, not a hang, and service once it answers again', async () => {
    const { client, headers } = await account();
    pgProxy.freeze();
    try {
      const started = Date.now();
      assertUnavailable(await client.get('/auth/session', headers));
      const took = Date.now() - started;
      assert.ok(took < STATEMENT_TIMEOUT_MS + 5000, `answered after ${took} ms`);
    } finally {
      pgProxy.thaw();
    }
    await recovers(() => client.get('/auth/session', headers));
  });

  it('PostgreSQL down: a JSON 503 with Retry-After, and service within seconds of its return', async () => {
    const { client, headers } = await account();
    pgProxy.refuse();
    try {
      assertUnavailable(await client.get('/auth/session', headers));
    } finally {
      pgProxy.accept();
    }
    const took = await recovers(() => client.get('/auth/session', headers));
    assert.ok(took < 10_000, `serving again ${took} ms after PostgreSQL came back`);
  });

  it('regression: right-password logins answered 503 while PostgreSQL was frozen do not count as failed logins (issue 22 item 4)', async () => {
    // 11 is past both failed-login rules of the defaults: 5 per account, 10 per address.
    const { client, email, headers } = await account();
    pgProxy.freeze();
    try {
      const during = await Promise.all(Array.from({ length: 11 }, () => login(email, headers)));
      for (const response of during) assertUnavailable(response);
    } finally {
      pgProxy.thaw();
    }
    await recovers(() => client.get('/auth/session', headers));
    const after = await login(email, headers);
    assert.equal(after.status, 200, JSON.stringify(after.body));
  });

  it('Redis frozen: a login cannot read its rate limit, so it is refused with a 503 (never let through), quickly; then it works', async () => {
    const { email, headers } = await account();
    redisProxy.freeze();
    try {
      const started = Date.now();
      const refused = await login(email, headers);
      assertUnavailable(refused);
      assert.equal(refused.body.meta, undefined, 'no session was made');
      assert.ok(Date.now() - started < REDIS_COMMAND_TIMEOUT_MS + 5000, `answered after ${Date.now() - started} ms`);
    } finally {
      redisProxy.thaw();
    }
    await recovers(() => login(email, headers));
  });

  it('Redis connections killed (CLIENT KILL): the client reconnects by itself and logins work again', async () => {
    const { email, headers } = await account();
    const ports = redisProxy.upstreamPorts();
    assert.ok(ports.length > 0);
    const admin = new Redis(REDIS_URL);
    try {
      for (const port of ports) await admin.call('CLIENT', 'KILL', 'ADDR', `127.0.0.1:${port}`);
    } finally {
      admin.disconnect();
    }
    await recovers(() => login(email, headers));
    assert.equal(server.child.exitCode, null);
  });

  it('Redis down: logins answer 503 with Retry-After while it is, and work within seconds of its return', async () => {
    const { email, headers } = await account();
    redisProxy.refuse();
    try {
      assertUnavailable(await login(email, headers));
    } finally {
      redisProxy.accept();
    }
    const took = await recovers(() => login(email, headers));
    assert.ok(took < 10_000, `logging in again ${took} ms after Redis came back`);
  });

  it('wrote nothing but JSON lines through all of it, and logged the losses', { timeout: 10_000 }, async () => {
    // Log lines reach stdout in batches (at the latest 100 ms after they were logged): wait for the last one.
    await server.waitForOutput((output) => output.includes('"msg":"Redis connection restored"'));
    const lines = server.output().split('\n').filter(Boolean);
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `not JSON: ${line}`);
    const messages = lines.map((line) => JSON.parse(line) as { msg: string; level: string });
    assert.ok(messages.some((m) => m.msg === 'dependency unavailable' && m.level === 'warn'));
    assert.ok(messages.some((m) => m.msg === 'Redis is not answering; reconnecting'));
    assert.ok(messages.some((m) => m.msg === 'Redis connection restored'));
    assert.ok(!messages.some((m) => m.level === 'error' || m.level === 'fatal'), 'no error lines');
  });
});
