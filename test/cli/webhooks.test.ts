import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { deliveriesOf, eventsOf, startReceiver, until, webhookSecret, type Receiver } from '../audit/support.js';
import { maxRetryDelayMs } from '../../src/messaging/webhooks/retry-schedule.js';
import type { Delivery } from '../../src/store/webhook-deliveries.js';
import { cliError, cliJson, runCli } from './support.js';

// `webhooks list` and `webhooks requeue` against the database of a running
// server whose receiver refuses every delivery until the test lets it
// accept: deliveries run out of attempts (the test moves the server's
// clock), the CLI puts them back, and the server's sender delivers them.

const secret = webhookSecret();

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`webhooks CLI [${kind}]`, skip, () => {
    let hooks: Receiver;
    let server: TestServer;
    // The CLI runs with the server's settings, as an operator runs it: its own event is sent as well.
    let env: Record<string, string>;
    before(async () => {
      hooks = await startReceiver({ answer: 500 });
      env = { WEBHOOK_URLS: hooks.url, WEBHOOK_SECRET: secret.setting, WEBHOOK_MAX_ATTEMPTS: '2' };
      server = await startTestServer(kind, { ...env, WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_TIMEOUT_MS: '2000', ACCOUNT_EMAIL_VERIFICATION: 'none' });
    });
    after(async () => {
      await server?.close();
      await hooks?.close();
    });
    const db = () => server.app.deps.config.databaseUrl;

    /** The delivery of a failed login's event, once its attempts have run out. */
    async function failedDelivery(): Promise<Delivery> {
      const email = uniqueEmail('requeue');
      assert.equal((await server.client('app').post('/auth/login', { email, password: PASSWORD })).status, 400);
      const event = (await eventsOf(server, 'login.failed')).find((e) => (e.detail as { identifier?: string }).identifier === email)!;
      const row = async () => server.app.deps.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', event.eventId).executeTakeFirst();
      // The first failure recorded and its lease given up, before the clock moves past the retry.
      await until('the first attempt failed', async () => {
        const r = await row();
        return r?.status === 'pending' && r.attempts === 1 && r.lease_token === null;
      });
      server.clock.advance(maxRetryDelayMs(1));
      return until('out of attempts', async () => (await deliveriesOf(server)).find((d) => d.eventId === event.eventId && d.status === 'failed'));
    }

    it('lists failed deliveries, requeues one by id, and the sender delivers it once the receiver accepts', async () => {
      const failed = await failedDelivery();
      assert.equal(failed.attempts, 2);
      assert.equal(failed.lastError, 'HTTP 500');

      const listed = await cliJson(db(), ['webhooks', 'list', '--status', 'failed'], { env });
      const { created_at, finished_at, ...shown } = listed.deliveries.find((d: any) => d.id === failed.id);
      assert.deepEqual(shown, { id: failed.id, event_id: failed.eventId, event_type: 'login.failed', kind: 'webhook', url: hooks.url, status: 'failed', attempts: 2, next_attempt_at: null, last_error: 'HTTP 500' });
      assert.equal(created_at, new Date(failed.createdAt).toISOString());
      assert.equal(finished_at, new Date(failed.finishedAt!).toISOString());
      assert.equal((await cliJson(db(), ['webhooks', 'list', '--status', 'pending'], { env })).deliveries.some((d: any) => d.id === failed.id), false);
      const text = await runCli(db(), ['webhooks', 'list'], { env });
      assert.equal(text.status, 0, text.stderr);
      assert.match(text.stdout, /^ID +EVENT +STATUS +ATTEMPTS/);
      assert.match(text.stdout, new RegExp(`^${failed.id} +${failed.eventId} +failed +2 `, 'm'));

      hooks.answer = 200;
      const requeued = await cliJson(db(), ['webhooks', 'requeue', String(failed.id)], { env });
      assert.deepEqual(
        requeued.deliveries.map((d: any) => [d.id, d.status, d.attempts, d.finished_at]),
        [[failed.id, 'pending', 0, null]],
      );
      await until('the requeued delivery', () => hooks.delivered().get(failed.eventId) === 1);
      const delivered = await until('recorded as delivered', async () => (await deliveriesOf(server)).find((d) => d.id === failed.id && d.status === 'delivered'));
      assert.equal(delivered.attempts, 1, 'its attempts were counted afresh');

      const [event] = await eventsOf(server, 'webhook.requeued');
      assert.ok(event);
      assert.deepEqual([event.userId, event.ip, event.userAgent, event.outcome, event.detail], [null, '', '', 'success', { deliveries: 1, actor: 'cli' }]);
      await until('the requeue event sent as well', () => hooks.delivered().get(event.eventId) === 1);

      await cliError(db(), ['webhooks', 'requeue', String(failed.id)], 'not_failed');
      await cliError(db(), ['webhooks', 'requeue', '999999999'], 'not_found');
      await cliError(db(), ['webhooks', 'requeue'], 'required');
      await cliError(db(), ['webhooks', 'requeue', String(failed.id), '--all-failed'], 'required');
      assert.equal((await eventsOf(server, 'webhook.requeued')).length, 1, 'a refused requeue records nothing');
    });

    it('requeues every failed delivery with --all-failed, and none when a named one has not failed', async () => {
      hooks.answer = 500;
      const first = await failedDelivery();
      const second = await failedDelivery();
      const delivered = (await deliveriesOf(server)).find((d) => d.status === 'delivered')!;
      await cliError(db(), ['webhooks', 'requeue', String(first.id), String(delivered.id)], 'not_failed');
      assert.equal((await deliveriesOf(server)).find((d) => d.id === first.id)!.status, 'failed', 'all or nothing');

      hooks.answer = 200;
      const events = (await eventsOf(server, 'webhook.requeued')).length;
      const requeued = await cliJson(db(), ['webhooks', 'requeue', '--all-failed'], { env });
      assert.deepEqual(requeued.deliveries.map((d: any) => d.id), [first.id, second.id]);
      await until('both delivered', () => hooks.delivered().get(first.eventId) === 1 && hooks.delivered().get(second.eventId) === 1);
      const recorded = await eventsOf(server, 'webhook.requeued');
      assert.equal(recorded.length, events + 1);
      assert.deepEqual(recorded.at(-1)!.detail, { deliveries: 2, actor: 'cli' });

      const none = await runCli(db(), ['webhooks', 'requeue', '--all-failed'], { env });
      assert.equal(none.status, 0, none.stderr);
      assert.equal(none.stdout, 'no failed deliveries to requeue\n');
      assert.equal((await eventsOf(server, 'webhook.requeued')).length, events + 1, 'requeuing none records nothing');
    });
  });
}
