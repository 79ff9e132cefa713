import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, signedUp, uniqueEmail } from '../support/accounts.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from './support.js';
import { insertAuditEvents, type NewAuditEvent } from '../../src/store/audit-events.js';
import { AUDIT_EVENT_TYPES } from '../../src/domain/audit-event.js';

// GET /audit-events (filters, keyset pages), its CSV export, the event type
// catalogue, and GET /audit-stats: events made through the public API at
// times set on the injected clock, counted in buckets with UTC edges.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Only the password-reset request is limited: 1 a minute per address, so a second request is a refusal.
const ENV = {
  ADMIN_PORT: '0',
  ACCOUNT_EMAIL_VERIFICATION: 'optional',
  ACCOUNT_RATE_LIMITS: JSON.stringify({ reset_password: '1/m/key', login: false, login_failed: false, signup: false }),
};

/** A CSV document as rows of cells (RFC 4180 quoting). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += c;
  }
  return rows;
}

describeEachDatabase('audit trail and statistics', ENV, ({ server }) => {
  let base: string;
  let writer: AdminClient;
  let writeKeyId: number;
  let reader: AdminClient;
  /** The frozen "now" of the suite, and the users it made. */
  let now: number;
  let alice: { id: number; email: string };
  let bob: { id: number; email: string };

  const at = (time: number) => server().clock.advance(time - server().clock.now());
  const userIdOf = async (email: string) => (await reader.get(`/users?email=${encodeURIComponent(email)}`)).body.data[0].id as number;
  const login = (email: string, password: string, userAgent = 'test-agent') => server().client('app').request('POST', '/auth/login', { email, password }, { 'user-agent': userAgent });

  before(async () => {
    base = await adminUrl(server());
    const write = await newKey(server(), 'write');
    writeKeyId = write.id;
    writer = new AdminClient(base, write.secret);
    reader = new AdminClient(base, (await newKey(server(), 'read')).secret);
    server().clock.freeze();
    // Half past the hour, so that "three hours ago" and "now" sit well inside their buckets.
    now = Math.floor(server().clock.now() / HOUR) * HOUR + 30 * 60_000;

    // 40 days ago: a signup no range reaches.
    at(now - 40 * DAY);
    await signedUp(server().client('app'));
    // Two days ago: Alice and Bob sign up.
    at(now - 2 * DAY);
    const a = await signedUp(server().client('app'));
    const b = await signedUp(server().client('app'));
    // Three hours ago: Alice signs in, and someone fails twice as her (the user agent is a formula).
    at(now - 3 * HOUR);
    assert.equal((await login(a.email, PASSWORD)).status, 200);
    assert.equal((await login(a.email, 'wrong-password', '=HYPERLINK("http://evil")')).status, 400);
    assert.equal((await login(a.email, 'wrong-password')).status, 400);
    at(now);
    alice = { id: await userIdOf(a.email), email: a.email };
    bob = { id: await userIdOf(b.email), email: b.email };
    // Now: an administrator disables Bob; two reset requests for Alice, the second refused.
    assert.equal((await writer.patch(`/users/${bob.id}`, { is_active: false })).status, 200);
    assert.equal((await server().client('app').post('/auth/password/request', { email: a.email })).status, 200);
    assert.equal((await server().client('app').post('/auth/password/request', { email: a.email })).status, 429);
  });

  it('lists events by several types, user, actor, outcome and time, newest first', async () => {
    const types = (await reader.get(`/audit-events?user_id=${alice.id}&type=login.succeeded,login.failed`)).body.data.map((e: { type: string }) => e.type);
    // Signing up signs in too: a login.succeeded two days ago, another three hours ago.
    assert.deepEqual(types.sort(), ['login.failed', 'login.failed', 'login.succeeded', 'login.succeeded']);

    const failed = (await reader.get(`/audit-events?user_id=${alice.id}&outcome=failure`)).body.data;
    assert.deepEqual(failed.map((e: { type: string }) => e.type), ['login.failed', 'login.failed']);
    assert.equal(failed[0].occurred_at, new Date(now - 3 * HOUR).toISOString());

    const byKey = (await reader.get(`/audit-events?actor=admin_api&actor_id=${writeKeyId}`)).body.data;
    assert.deepEqual(
      byKey.map((e: { type: string; user_id: number }) => [e.type, e.user_id]),
      [['account.disabled', bob.id]],
    );
    assert.equal((await reader.get('/audit-events?actor=admin_api&actor_id=999999')).body.data.length, 0);
    // `user`: what the user did themselves, no actor named.
    const own = (await reader.get(`/audit-events?user_id=${bob.id}&actor=user`)).body.data.map((e: { type: string }) => e.type);
    assert.deepEqual(own, ['login.succeeded', 'signup']);

    // since inclusive, until exclusive; a bare time is UTC.
    const window = `since=${new Date(now - 3 * HOUR).toISOString()}&until=${new Date(now).toISOString().slice(0, 19)}`;
    const inWindow = (await reader.get(`/audit-events?user_id=${alice.id}&${window}`)).body.data;
    assert.equal(inWindow.length, 3);

    assertAdminError(await reader.get('/audit-events?type=login.succeeded,nope'), 400, 'invalid', 'type');
    assertAdminError(await reader.get('/audit-events?actor_id=3'), 400, 'invalid', 'actor_id');
    assertAdminError(await reader.get('/audit-events?actor=robot'), 400, 'invalid');
    assertAdminError(await reader.get('/audit-events?outcome=maybe'), 400, 'invalid');
    assertAdminError(await reader.get('/audit-events?until=tomorrow'), 400, 'invalid', 'until');
    assertAdminError(await reader.get('/audit-events?cursor=bm9wZQ'), 400, 'invalid', 'cursor');
  });

  it('pages through events that share a time without losing or repeating one', async () => {
    // Twelve events in the same millisecond, their ids out of time order with others.
    const when = now - 5 * HOUR;
    const events: NewAuditEvent[] = Array.from({ length: 12 }, (_, i) => ({
      eventId: `evt_page_${i}`,
      occurredAt: when,
      type: 'session.revoked',
      userId: bob.id,
      ip: '',
      userAgent: '',
      outcome: 'success',
      detail: {},
    }));
    await insertAuditEvents(server().app.deps.db, events);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await reader.get(`/audit-events?user_id=${bob.id}&type=session.revoked&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200);
      seen.push(...page.body.data.map((e: { event_id: string }) => e.event_id));
      cursor = page.body.meta.next_cursor;
    }
    assert.equal(seen.length, 12);
    assert.equal(new Set(seen).size, 12);
  });

  it('exports the filtered events as CSV, streamed a page at a time, formulas defused', async () => {
    const response = await fetch(`${base}/admin/v1/audit-events/export?user_id=${alice.id}&type=login.failed,login.succeeded`, { headers: { authorization: `Bearer ${reader.key}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^text\/csv; charset=utf-8/);
    assert.match(response.headers.get('content-disposition')!, /^attachment; filename="audit-events-\d{8}-\d{6}\.csv"$/);
    const rows = parseCsv(await response.text());
    assert.deepEqual(rows[0], ['id', 'event_id', 'occurred_at', 'type', 'user_id', 'outcome', 'actor', 'actor_id', 'ip', 'user_agent', 'detail']);
    assert.equal(rows.length, 5);
    assert.deepEqual(rows.slice(1).map((r) => r[3]), ['login.failed', 'login.failed', 'login.succeeded', 'login.succeeded']);
    const agents = rows.slice(1).map((r) => r[9]);
    assert.ok(agents.includes(`'=HYPERLINK("http://evil")`), JSON.stringify(agents));
    assert.equal(JSON.parse(rows[1]![10]!).method, 'password');

    // More rows than one page of the store's reads (500).
    const many: NewAuditEvent[] = Array.from({ length: 1100 }, (_, i) => ({
      eventId: `evt_bulk_${i}`,
      occurredAt: now - 10 * DAY + i,
      type: 'email.verified',
      userId: 424242,
      ip: '@10.0.0.1',
      userAgent: 'bulk',
      outcome: 'success',
      detail: { email: `-${i}@example.com` },
    }));
    for (let i = 0; i < many.length; i += 100) await insertAuditEvents(server().app.deps.db, many.slice(i, i + 100));
    const bulk = parseCsv(await (await fetch(`${base}/admin/v1/audit-events/export?user_id=424242`, { headers: { authorization: `Bearer ${reader.key}` } })).text());
    assert.equal(bulk.length, 1101);
    assert.equal(new Set(bulk.slice(1).map((r) => r[1])).size, 1100);
    assert.equal(bulk[1]![8], "'@10.0.0.1");
    assert.equal(bulk[1]![2], new Date(now - 10 * DAY + 1099).toISOString());

    const bad = await fetch(`${base}/admin/v1/audit-events/export?type=nope`, { headers: { authorization: `Bearer ${reader.key}` } });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).errors[0].param, 'type');
    const unknown = await fetch(`${base}/admin/v1/audit-events/export?limit=5`, { headers: { authorization: `Bearer ${reader.key}` } });
    assert.equal(unknown.status, 400);
    assert.equal((await new AdminClient(base, undefined).get('/audit-events/export')).status, 401);
  });

  it('lists the event types and actors for a filter to offer', async () => {
    const answer = await reader.get('/audit-event-types');
    assert.deepEqual(answer.body.data.types, [...AUDIT_EVENT_TYPES]);
    assert.ok(answer.body.data.actors.includes('admin_console'));
  });

  it('counts each series by hour over a day, zero-filled, edges on UTC hours', async () => {
    const day = await reader.get('/audit-stats?range=day');
    assert.equal(day.status, 200, JSON.stringify(day.body));
    const data = day.body.data;
    assert.equal(data.bucket_seconds, 3600);
    assert.equal(data.buckets.length, 24);
    const last = Math.floor(now / HOUR) * HOUR;
    assert.equal(data.buckets[23], new Date(last).toISOString());
    assert.equal(data.from, new Date(last - 23 * HOUR).toISOString());
    assert.equal(data.until, new Date(last + HOUR).toISOString());
    const only = (index: number, count: number) => Array.from({ length: 24 }, (_, i) => (i === index ? count : 0));
    assert.deepEqual(data.series.sign_ins, { counts: only(20, 1), total: 1 });
    assert.deepEqual(data.series.failed_logins, { counts: only(20, 2), total: 2 });
    assert.deepEqual(data.series.signups, { counts: only(-1, 0), total: 0 });
    // The refused reset request, written by the route itself before counting.
    assert.deepEqual(data.series.rate_limit_refusals, { counts: only(23, 1), total: 1 });
    const recorded = (await reader.get('/audit-events?type=rate_limit.refused')).body.data;
    assert.equal(recorded.length, 1);
    assert.deepEqual(recorded[0].detail, { action: 'reset_password', refusals: 1 });
  });

  it('counts by six hours over a week and by day over a month, leaving older events out', async () => {
    const week = (await reader.get('/audit-stats?range=week')).body.data;
    assert.equal(week.buckets.length, 28);
    assert.equal(week.bucket_seconds, 6 * 3600);
    const sixHours = 6 * HOUR;
    const weekIndex = (t: number) => Math.floor(t / sixHours) - (Math.floor(now / sixHours) - 27);
    assert.equal(week.series.signups.total, 2);
    assert.equal(week.series.signups.counts[weekIndex(now - 2 * DAY)], 2);
    assert.equal(week.series.sign_ins.counts[weekIndex(now - 3 * HOUR)], 1);
    // Signing up signs in.
    assert.equal(week.series.sign_ins.counts[weekIndex(now - 2 * DAY)], 2);
    assert.equal(week.series.sign_ins.total, 3);
    assert.equal(new Date(week.buckets[0]).getTime() % sixHours, 0);

    const month = (await reader.get('/audit-stats?range=month')).body.data;
    assert.equal(month.buckets.length, 30);
    assert.equal(month.bucket_seconds, 86400);
    assert.match(month.buckets[0], /T00:00:00\.000Z$/);
    const dayIndex = (t: number) => Math.floor(t / DAY) - (Math.floor(now / DAY) - 29);
    assert.equal(month.series.signups.total, 2, 'the signup of 40 days ago is out of range');
    assert.equal(month.series.signups.counts[dayIndex(now - 2 * DAY)], 2);
    assert.equal(month.series.failed_logins.counts[dayIndex(now - 3 * HOUR)], 2);
    assert.equal(month.series.rate_limit_refusals.total, 1);

    assert.equal((await reader.get('/audit-stats')).body.data.range, 'day');
    assertAdminError(await reader.get('/audit-stats?range=year'), 400, 'invalid');
  });

  it('writes refusals a minute at a time: a refusal after the minute writes the one before', async () => {
    const request = (email: string) => server().client('app').post('/auth/password/request', { email });
    const [first, second] = [uniqueEmail('refused'), uniqueEmail('refused')];
    assert.equal((await request(first)).status, 200);
    assert.equal((await request(first)).status, 429);
    assert.equal((await request(first)).status, 429);
    // A minute later on the clock (another address: the limiter's own windows run on real time), one more refusal, and the first minute's two are written.
    at(now + 61_000);
    assert.equal((await request(second)).status, 200);
    assert.equal((await request(second)).status, 429);
    const week = (await reader.get('/audit-stats?range=week')).body.data;
    assert.equal(week.series.rate_limit_refusals.total, 4, 'the one of the suite, two, then one');
    const events = (await reader.get(`/audit-events?type=rate_limit.refused&since=${new Date(now).toISOString()}`)).body.data;
    assert.deepEqual(
      events.map((e: { occurred_at: string; detail: unknown }) => [e.occurred_at, e.detail]),
      [
        [new Date(now + 61_000).toISOString(), { action: 'reset_password', refusals: 1 }],
        [new Date(now).toISOString(), { action: 'reset_password', refusals: 2 }],
        [new Date(now).toISOString(), { action: 'reset_password', refusals: 1 }],
      ],
    );
    at(now);
    assertAdminError(await reader.get('/audit-stats?range=year'), 400, 'invalid');
  });
});
