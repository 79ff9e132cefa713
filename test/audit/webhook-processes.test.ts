import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ApiClient } from '../support/client.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startServerProcess, type ServerProcess } from '../support/process-server.js';
import { serviceSkipReason } from '../support/services.js';
import { TEST_SECRET } from '../support/server.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { startReceiver, until, verifyStandardWebhook, webhookSecret, type Receiver } from './support.js';

// Webhooks across processes as deployed (`node src/main.ts`, settings from
// the environment): a server killed between the commit of an event and its
// delivery loses nothing, and two servers sharing one PostgreSQL database
// never deliver one event twice, however they race for the outbox.

const secret = webhookSecret();

function env(database: TestDatabase, receiver: Receiver, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    SECRET_KEY: TEST_SECRET,
    ACCOUNT_EMAIL_VERIFICATION: 'none',
    ACCOUNT_RATE_LIMITS: 'false',
    WEBHOOK_URLS: receiver.url,
    WEBHOOK_SECRET: secret.setting,
    WEBHOOK_POLL_INTERVAL_MS: '20',
    ...extra,
  };
}

describeUnlessSkipped('a server killed before delivering (SQLite)', undefined, () => {
  let database: TestDatabase;
  let receiver: Receiver;
  const servers: ServerProcess[] = [];
  before(async () => {
    database = await createTestDatabase('sqlite');
    receiver = await startReceiver({ answer: 'hang' });
  });
  after(async () => {
    for (const server of servers) await server.stop();
    await receiver.close();
    await database.drop();
  });

  it('leaves the committed event to the next server, which delivers it', async () => {
    // The attempt is cut off by the kill; its lease (twice the timeout and a second) then runs out.
    const settings = env(database, receiver, { WEBHOOK_TIMEOUT_MS: '500' });
    const first = await startServerProcess(settings);
    servers.push(first);
    const client = new ApiClient(first.baseUrl, 'app');
    assert.equal((await client.post('/auth/signup', { email: uniqueEmail('killed'), password: PASSWORD })).status, 200);
    const inFlight = await until('the first attempt, left hanging', () => receiver.received[0]);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    servers.splice(servers.indexOf(first), 1);

    receiver.answer = 200;
    servers.push(await startServerProcess(settings));
    await until('the delivery by the restarted server', () => receiver.delivered().get(inFlight.id) === 1);
    const delivered = receiver.received.find((h) => h.status === 200)!;
    assert.equal(JSON.parse(delivered.body).type, 'signup');
    assert.ok(verifyStandardWebhook(secret.key, delivered.headers, delivered.body));
  });
});

const skip = await serviceSkipReason('PostgreSQL');

describeUnlessSkipped('two servers sending from one PostgreSQL outbox', skip, () => {
  let database: TestDatabase;
  let receiver: Receiver;
  const servers: ServerProcess[] = [];
  before(async () => {
    database = await createTestDatabase('postgres');
    // A slow receiver keeps each delivery open a while, so that the two senders' rounds overlap.
    receiver = await startReceiver({ delayMs: 30 });
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await receiver.close();
    await database.drop();
  });

  it('delivers every event exactly once, never the same one twice at a time', async () => {
    const settings = env(database, receiver);
    servers.push(await startServerProcess(settings));
    servers.push(await startServerProcess(settings));
    const events = 40;
    await Promise.all(
      Array.from({ length: events }, async (_, i) => {
        const client = new ApiClient(servers[i % 2]!.baseUrl, 'app');
        assert.equal((await client.post('/auth/login', { email: uniqueEmail('race'), password: PASSWORD })).status, 400);
      }),
    );
    await until(`${events} deliveries`, () => receiver.delivered().size === events);
    // A moment more for any duplicate to show: the senders poll every 20 ms.
    const settled = receiver.received.length;
    await until('both servers idle', async () => {
      const metrics = await Promise.all(servers.map(async (s) => (await fetch(`${s.baseUrl}/metrics`)).text()));
      return metrics.every((m) => /auth_webhook_outbox_backlog 0\b/.test(m));
    });
    assert.equal(receiver.received.length, settled);
    assert.deepEqual([...receiver.delivered().values()], Array(events).fill(1));
    assert.equal(receiver.maxConcurrentPerId, 1);
  });
});
