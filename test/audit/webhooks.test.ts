import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { freePort } from '../support/process-server.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { maxRetryDelayMs } from '../../src/messaging/webhooks/retry-schedule.js';
import type { Delivery } from '../../src/store/webhook-deliveries.js';
import { deliveriesOf, eventsOf, startReceiver, tracedClient, until, verifyStandardWebhook, webhookSecret, type Receiver } from './support.js';

// Webhooks against a real receiver: signed as Standard Webhooks says,
// retried with backoff (the test moves the server's clock, never sleeps)
// while the receiver is down or refusing, delivered once per event id, and
// marked failed, not dropped, when out of attempts.

const secret = webhookSecret();

function webhookEnv(urls: string[], extra: Record<string, string> = {}): Record<string, string> {
  return { WEBHOOK_URLS: urls.join(','), WEBHOOK_SECRET: secret.setting, WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_TIMEOUT_MS: '2000', ACCOUNT_EMAIL_VERIFICATION: 'none', ...extra };
}

/** A failed login: an event without any account. */
/**
 * The event's delivery once an attempt has failed and been recorded: pending,
 * its lease given up (a row claimed for an attempt is pending too, and its
 * next_attempt_at is the lease's end), after `attempts` attempts when given.
 */
async function settledPending(server: TestServer, id: string, attempts?: number): Promise<Delivery | undefined> {
  const row = await server.app.deps.db.selectFrom('webhook_deliveries').select(['lease_token', 'attempts', 'status']).where('event_id', '=', id).executeTakeFirst();
  if (!row || row.lease_token !== null || row.status !== 'pending' || row.attempts === 0 || (attempts !== undefined && row.attempts !== attempts)) return undefined;
  return (await deliveriesOf(server)).find((d) => d.eventId === id);
}

async function failedLogin(server: TestServer): Promise<string> {
  const client = await tracedClient(server, 'app');
  const email = uniqueEmail('hook');
  assert.equal((await client.post('/auth/login', { email, password: PASSWORD })).status, 400);
  const events = await eventsOf(server, 'login.failed');
  return events.find((e) => (e.detail as { identifier?: string }).identifier === email)!.eventId;
}

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`webhooks [${kind}]`, skip, () => {
    const closing: Array<() => Promise<void>> = [];
    after(async () => {
      for (const close of closing.reverse()) await close();
    });
    async function serverWith(env: Record<string, string>): Promise<TestServer> {
      const server = await startTestServer(kind, { TRUSTED_PROXY_COUNT: '1', ...env });
      closing.push(() => server.close());
      return server;
    }
    async function receiver(opts: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> {
      const started = await startReceiver(opts);
      closing.push(() => started.close());
      return started;
    }

    it('delivers each event signed, with the event as the body', async () => {
      const hooks = await receiver();
      const server = await serverWith(webhookEnv([hooks.url]));
      const client = await tracedClient(server, 'browser');
      const email = uniqueEmail('signed');
      assert.equal((await client.post('/auth/signup', { email, password: PASSWORD })).status, 200);
      const [signup] = await eventsOf(server, 'signup');
      const hook = await until('the signup webhook', () => hooks.received.find((h) => h.id === signup!.eventId));
      assert.ok(verifyStandardWebhook(secret.key, hook.headers, hook.body), 'the signature verifies');
      assert.ok(!verifyStandardWebhook(webhookSecret().key, hook.headers, hook.body), 'another secret does not');
      assert.ok(!verifyStandardWebhook(secret.key, hook.headers, hook.body.replace('signup', 'logout')), 'a changed body does not');
      assert.equal(hook.headers['content-type'], 'application/json');
      assert.ok(Math.abs(Number(hook.headers['webhook-timestamp']) - server.clock.now() / 1000) < 60);
      const body = JSON.parse(hook.body);
      assert.deepEqual(body, {
        type: 'signup',
        timestamp: new Date(signup!.occurredAt).toISOString(),
        data: { id: signup!.eventId, user_id: signup!.userId, ip: client.ip, user_agent: client.userAgent, outcome: 'success', detail: { method: 'password', email } },
      });
      await until('the delivery recorded', async () => (await deliveriesOf(server)).find((d) => d.eventId === signup!.eventId && d.status === 'delivered'));
    });

    it('sends only the configured event types, to every URL', async () => {
      const first = await receiver();
      const second = await receiver();
      const server = await serverWith(webhookEnv([first.url, second.url], { WEBHOOK_EVENTS: 'login.failed' }));
      const client = await tracedClient(server, 'app');
      assert.equal((await client.post('/auth/signup', { email: uniqueEmail('typed'), password: PASSWORD })).status, 200);
      const id = await failedLogin(server);
      await until('both receivers', () => first.delivered().get(id) === 1 && second.delivered().get(id) === 1);
      const types = (await deliveriesOf(server)).map((d) => JSON.parse(d.payload).type);
      assert.deepEqual([...new Set(types)], ['login.failed']);
      assert.equal((await eventsOf(server, 'signup')).length, 1, 'recorded, though not sent');
    });

    it('retries a receiver answering 503 with backoff, then delivers once', async () => {
      const hooks = await receiver({ answer: 503 });
      const server = await serverWith(webhookEnv([hooks.url]));
      const id = await failedLogin(server);
      await until('the first attempt', () => hooks.received.some((h) => h.id === id));
      const row = await until('the retry scheduled', () => settledPending(server, id, 1));
      assert.equal(row.lastError, 'HTTP 503');
      assert.ok(row.nextAttemptAt > server.clock.now(), 'the next attempt waits');
      assert.ok(row.nextAttemptAt - server.clock.now() <= maxRetryDelayMs(1));
      server.clock.advance(maxRetryDelayMs(1));
      await until('the second attempt', () => hooks.received.filter((h) => h.id === id).length === 2);
      // Its failure recorded (the lease given up) and the next try scheduled from the clock as it is now, before the clock moves on.
      await until('the second retry scheduled', () => settledPending(server, id, 2));
      hooks.answer = 200;
      server.clock.advance(maxRetryDelayMs(2));
      await until('the delivery', () => hooks.delivered().get(id) === 1);
      const done = await until('delivered', async () => (await deliveriesOf(server)).find((d) => d.eventId === id && d.status === 'delivered'));
      assert.equal(done.attempts, 3);
      // Nothing more is sent for it, however far the clock moves.
      server.clock.advance(maxRetryDelayMs(20));
      await failedLogin(server);
      await until('a later event delivered', () => hooks.delivered().size === 2);
      assert.equal(hooks.delivered().get(id), 1);
    });

    it('retries while nothing listens at the URL, and delivers when the receiver comes up', async () => {
      const port = await freePort();
      const server = await serverWith(webhookEnv([`http://127.0.0.1:${port}/hooks`]));
      const id = await failedLogin(server);
      const refused = await until('a refused attempt', () => settledPending(server, id));
      assert.equal(refused.lastError, 'ECONNREFUSED');
      const hooks = await receiver({ port });
      server.clock.advance(maxRetryDelayMs(refused.attempts));
      await until('the delivery', () => hooks.delivered().get(id) === 1);
      assert.ok(verifyStandardWebhook(secret.key, hooks.received[0]!.headers, hooks.received[0]!.body));
    });

    it('marks a delivery failed after its last attempt, visible and never dropped', async () => {
      const hooks = await receiver({ answer: 500 });
      const server = await serverWith(webhookEnv([hooks.url], { WEBHOOK_MAX_ATTEMPTS: '2' }));
      const id = await failedLogin(server);
      await until('the first attempt', () => hooks.received.some((h) => h.id === id));
      await until('the retry scheduled', async () => (await deliveriesOf(server)).some((d) => d.eventId === id && d.attempts === 1 && d.status === 'pending' && d.lastError));
      server.clock.advance(maxRetryDelayMs(1));
      const failed = await until('failed', async () => (await deliveriesOf(server)).find((d) => d.eventId === id && d.status === 'failed'));
      assert.equal(failed.attempts, 2);
      assert.equal(failed.lastError, 'HTTP 500');
      assert.equal(hooks.received.filter((h) => h.id === id).length, 2);
      // The counter moves just after the row is settled, and the backlog gauge at the sender's next round.
      const expected = [/auth_webhook_deliveries_total\{outcome="failed"\} 1/, /auth_webhook_deliveries_total\{outcome="retry"\} 1/, /auth_webhook_outbox_backlog 0/];
      await until('failed 1, retry 1 and backlog 0 in the metrics', async () => {
        const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
        return expected.every((pattern) => pattern.test(metrics));
      });
    });
  });
}

describe('webhook settings', () => {
  it('refuses URLs without a secret, a malformed secret and unknown event types', async () => {
    const { loadConfig } = await import('../../src/config/config.js');
    const base = { SECRET_KEY: 'x'.repeat(40) };
    assert.throws(() => loadConfig({ ...base, WEBHOOK_URLS: 'https://example.com/h' }), /WEBHOOK_SECRET/);
    assert.throws(() => loadConfig({ ...base, WEBHOOK_URLS: 'https://example.com/h', WEBHOOK_SECRET: 'plain' }), /WEBHOOK_SECRET/);
    assert.throws(() => loadConfig({ ...base, WEBHOOK_URLS: 'ftp://example.com/h', WEBHOOK_SECRET: secret.setting }), /WEBHOOK_URLS/);
    assert.throws(() => loadConfig({ ...base, WEBHOOK_URLS: 'https://example.com/h', WEBHOOK_SECRET: secret.setting, WEBHOOK_EVENTS: 'login.maybe' }), /WEBHOOK_EVENTS/);
    assert.throws(() => loadConfig({ ...base, AUDIT_RETENTION_DAYS: '-1' }), /AUDIT_RETENTION_DAYS/);
    assert.equal(loadConfig(base).audit.webhooks, null);
    assert.equal(loadConfig(base).audit.retentionDays, 90);
  });
});
