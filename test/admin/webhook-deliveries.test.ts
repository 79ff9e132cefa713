import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { uniqueEmail } from '../support/accounts.js';
import { startReceiver, until, webhookSecret, type Receiver } from '../audit/support.js';
import { AdminClient, adminUrl, newKey } from './support.js';
import { listAuditEvents } from '../../src/store/audit-events.js';

// The webhook outbox as the console's screen reads it: deliveries of each
// status with the event type they carry, and failed ones sent again, one
// or all, to a receiver that refused them and now takes them.

const secret = webhookSecret();

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`admin API: webhook deliveries [${kind}]`, skip, () => {
    let hooks: Receiver;
    let server: TestServer;
    let writer: AdminClient;
    before(async () => {
      hooks = await startReceiver({ answer: 500 });
      server = await startTestServer(kind, { ADMIN_PORT: '0', WEBHOOK_URLS: hooks.url, WEBHOOK_SECRET: secret.setting, WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_EVENTS: 'signup' });
      writer = new AdminClient(await adminUrl(server), (await newKey(server, 'write')).secret);
    });
    after(async () => {
      await server?.close();
      await hooks?.close();
    });

    /** Makes a user (a signup event, delivered to the receiver) and answers the delivery once it has `status`. */
    async function deliveryOfNewUser(status: string) {
      const user = (await writer.post('/users', { email: uniqueEmail('outbox') })).body.data;
      const [signup] = await listAuditEvents(server.app.deps.db, { userId: user.id, types: ['signup'], limit: 1 });
      return until(`the signup delivery is ${status}`, async () => (await writer.get(`/webhook-deliveries?status=${status}&limit=1000`)).body.data.find((d: any) => d.event_id === signup!.eventId));
    }

    it('lists failed deliveries with their event type, then requeues one to a receiver that takes it', async () => {
      hooks.answer = 500;
      const failed = await deliveryOfNewUser('failed');
      assert.deepEqual([failed.event_type, failed.kind, failed.attempts, failed.next_attempt_at, failed.last_error], ['signup', 'webhook', 1, null, 'HTTP 500']);
      const undelivered = (await writer.get('/webhook-deliveries')).body.data;
      assert.ok(undelivered.some((d: any) => d.id === failed.id), 'failed ones are among the undelivered by default');

      hooks.answer = 204;
      const requeued = await writer.post('/webhook-deliveries/requeue', { ids: [failed.id] });
      assert.equal(requeued.status, 200, JSON.stringify(requeued.body));
      const delivered = await until('the requeued delivery is delivered', async () => (await writer.get('/webhook-deliveries?status=delivered')).body.data.find((d: any) => d.id === failed.id));
      assert.equal(delivered.attempts, 1, 'attempts are counted afresh');
      assert.notEqual(delivered.finished_at, null);
      assert.equal((await writer.get('/webhook-deliveries')).body.data.some((d: any) => d.id === failed.id), false, 'a delivered one is not undelivered');
    });

    it('requeues every failed delivery at once', async () => {
      hooks.answer = 500;
      const first = await deliveryOfNewUser('failed');
      const second = await deliveryOfNewUser('failed');
      hooks.answer = 200;
      const requeued = await writer.post('/webhook-deliveries/requeue', { all_failed: true });
      assert.equal(requeued.status, 200, JSON.stringify(requeued.body));
      const ids = requeued.body.data.map((d: any) => d.id);
      assert.ok(ids.includes(first.id) && ids.includes(second.id), JSON.stringify(ids));
      await until('both are delivered', async () => {
        const delivered = (await writer.get('/webhook-deliveries?status=delivered&limit=1000')).body.data.map((d: any) => d.id);
        return delivered.includes(first.id) && delivered.includes(second.id);
      });
      assert.deepEqual((await writer.get('/webhook-deliveries?status=failed')).body.data, []);
    });
  });
}
