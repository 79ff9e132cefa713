import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, startTestServer, type TestServer } from '../support/server.js';
import { serviceSkipReason } from '../support/services.js';
import { describeUnlessSkipped } from '../support/suites.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { startProxiedServices, type ProxiedServices } from '../support/proxied-services.js';

async function probe(server: TestServer, path: '/healthz' | '/readyz') {
  const response = await fetch(`${server.baseUrl}${path}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  return { status: response.status, body: (await response.json()) as any };
}

describeEachDatabase('health probes', {}, ({ server }) => {
  it('/healthz answers 200 while the process serves', async () => {
    const { status, body } = await probe(server(), '/healthz');
    assert.equal(status, 200);
    assert.deepEqual(body, { status: 200, data: { alive: true } });
  });

  it('/readyz answers 200 when the database answers, with the time it took', async () => {
    const { status, body } = await probe(server(), '/readyz');
    assert.equal(status, 200);
    assert.equal(body.data.checks.database.status, 'ok');
    assert.equal(typeof body.data.checks.database.ms, 'number');
    assert.equal(body.data.checks.redis, undefined, 'no Redis configured, none checked');
    assert.equal(body.errors, undefined);
  });

  it('probes live outside the client prefixes', async () => {
    const response = await fetch(`${server().baseUrl}/_service/app/v1/healthz`);
    assert.equal(response.status, 404);
  });
});

const skip = (await serviceSkipReason('PostgreSQL')) ?? (await serviceSkipReason('Redis'));

describeUnlessSkipped('readiness with PostgreSQL and Redis behind proxies the test freezes', skip, () => {
  let services: ProxiedServices;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let server: TestServer;

  before(async () => {
    services = await startProxiedServices();
    ({ pgProxy, redisProxy } = services);
    server = await startTestServer(
      'postgres',
      { REDIS_URL: services.redisUrl, HEALTH_CHECK_TIMEOUT_MS: '200' },
      { database: { url: services.databaseUrl, drop: async () => {} } },
    );
  });
  after(async () => {
    services?.release();
    await server?.close();
    await services?.close();
  });

  it('is ready when both answer', async () => {
    const { status, body } = await probe(server, '/readyz');
    assert.equal(status, 200);
    assert.equal(body.data.checks.database.status, 'ok');
    assert.equal(body.data.checks.redis.status, 'ok');
  });

  it('answers 503 naming redis while Redis is silent, checks it once for many polls, and recovers', async () => {
    const before = redisProxy.forwarded().length;
    redisProxy.freeze();
    const concurrent = await Promise.all(Array.from({ length: 8 }, () => probe(server, '/readyz')));
    const sequential = [];
    for (let i = 0; i < 4; i++) sequential.push(await probe(server, '/readyz'));
    for (const { status, body } of [...concurrent, ...sequential]) {
      assert.equal(status, 503);
      assert.deepEqual(body.errors.map((e: any) => [e.code, e.param]), [['not_ready', 'redis']]);
      assert.equal(body.data.checks.redis.status, 'failing');
      assert.equal(body.data.checks.database.status, 'ok');
    }
    redisProxy.thaw();
    await waitUntilReady(server);
    // Twelve polls while silent: one PING held by the proxy, at most one more after it.
    const pings = redisProxy.forwarded().slice(before).match(/\r\nping\r\n/gi)?.length ?? 0;
    assert.ok(pings >= 1 && pings <= 2, `expected one or two PINGs, saw ${pings}`);
  });

  it('answers 503 naming the database while PostgreSQL is silent, and recovers', async () => {
    pgProxy.freeze();
    const { status, body } = await probe(server, '/readyz');
    assert.equal(status, 503);
    assert.deepEqual(body.errors.map((e: any) => [e.code, e.param]), [['not_ready', 'database']]);
    assert.equal(body.data.checks.redis.status, 'ok');
    pgProxy.thaw();
    await waitUntilReady(server);
  });
});

/** Polls /readyz until it answers 200: the dependency's return is an event, not a time. */
async function waitUntilReady(server: TestServer): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await probe(server, '/readyz')).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail('not ready again within 5 s of the dependency answering');
}
