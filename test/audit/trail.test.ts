import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { sql } from 'kysely';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { isPostgres } from '../../src/store/db.js';
import { allEvents, deliveriesOf, eventsOf, startReceiver, tracedClient, until, webhookSecret } from './support.js';

// The trail's guarantees: an event commits with its change or not at all,
// and the sweeper removes events (and finished deliveries) past
// AUDIT_RETENTION_DAYS, nothing younger.

const NEW_PASSWORD = 'another long secret phrase';
const receiver = await startReceiver();
after(() => receiver.close());

describeEachDatabase(
  'the audit trail',
  { TRUSTED_PROXY_COUNT: '1', ACCOUNT_EMAIL_VERIFICATION: 'none', AUDIT_RETENTION_DAYS: '30', WEBHOOK_URLS: receiver.url, WEBHOOK_SECRET: webhookSecret().setting, WEBHOOK_POLL_INTERVAL_MS: '20' },
  ({ server }) => {
    it('a change rolled back after its event was written leaves no event, and no webhook', async () => {
      const db = server().app.deps.db;
      const client = await tracedClient(server(), 'app');
      assert.equal((await client.post('/auth/signup', { email: uniqueEmail('rollback'), password: PASSWORD })).status, 200);
      assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
      const before = (await allEvents(server())).length;
      const deliveries = (await deliveriesOf(server())).length;
      // A password change writes the hash, ends other sessions, records its event, then gives the session a
      // new key: a trigger makes that last step fail, after the event's insert.
      if (isPostgres(db)) {
        await sql`CREATE FUNCTION refuse_new_key() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`.execute(db);
        await sql`CREATE TRIGGER refuse_new_key BEFORE UPDATE OF key_hash ON sessions FOR EACH ROW EXECUTE FUNCTION refuse_new_key()`.execute(db);
      } else {
        await sql`CREATE TRIGGER refuse_new_key BEFORE UPDATE OF key_hash ON sessions BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(db);
      }
      try {
        const change = await client.post('/account/password/change', { current_password: PASSWORD, new_password: NEW_PASSWORD });
        assert.equal(change.status, 500);
      } finally {
        await sql`DROP TRIGGER refuse_new_key${isPostgres(db) ? sql` ON sessions` : sql``}`.execute(db);
        if (isPostgres(db)) await sql`DROP FUNCTION refuse_new_key`.execute(db);
      }
      assert.equal((await allEvents(server())).length, before, 'no event');
      assert.equal((await deliveriesOf(server())).length, deliveries, 'no outbox row');
      // The password did not change either.
      const again = await tracedClient(server(), 'app');
      assert.equal((await again.post('/auth/login', { email: (await client.get('/auth/session')).body.data.user.email, password: PASSWORD })).status, 200);
    });

    it('sweeps events and finished deliveries past the retention, in batches, and keeps younger ones', async () => {
      const s = server();
      const client = await tracedClient(s, 'app');
      const old = uniqueEmail('old');
      assert.equal((await client.post('/auth/login', { email: old, password: PASSWORD })).status, 400);
      const [oldEvent] = (await eventsOf(s, 'login.failed')).filter((e) => (e.detail as { identifier?: string }).identifier === old);
      await until('the old event delivered', () => receiver.delivered().get(oldEvent!.eventId) === 1);
      await until('its delivery recorded', async () => (await deliveriesOf(s)).find((d) => d.eventId === oldEvent!.eventId && d.status === 'delivered'));

      s.clock.advance(29 * 86400_000);
      const young = uniqueEmail('young');
      assert.equal((await client.post('/auth/login', { email: young, password: PASSWORD })).status, 400);
      s.clock.advance(2 * 86400_000);
      await s.app.sweep();
      const left = await allEvents(s);
      assert.ok(!left.some((e) => e.eventId === oldEvent!.eventId), 'the 31-day-old event is gone');
      assert.ok(left.some((e) => (e.detail as { identifier?: string }).identifier === young), 'the 2-day-old one stays');
      assert.ok(left.every((e) => e.occurredAt >= s.clock.now() - 30 * 86400_000));
      assert.ok(!(await deliveriesOf(s)).some((d) => d.eventId === oldEvent!.eventId), 'its delivery is gone too');
    });
  },
);

