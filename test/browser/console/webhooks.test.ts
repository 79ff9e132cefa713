import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { uniqueEmail } from '../../support/accounts.js';
import { startReceiver, until, webhookSecret, type Receiver } from '../../audit/support.js';
import { AdminClient, newKey } from '../../admin/support.js';
import { maxRetryDelayMs } from '../../../src/messaging/webhooks/retry-schedule.js';
import { listAuditEvents } from '../../../src/store/audit-events.js';
import { afterReauthentication, screenshots, startConsole, type ConsoleSuite } from './support.js';

// The webhook deliveries screen in Chromium, against a real receiver: it
// refuses signups' events until the test lets it take them; a first failure
// leaves a delivery pending with its next attempt, the server's clock moved
// past it makes it failed (two attempts), and the screen sends failed ones
// again, one, the selected or all, each checked at the receiver and through
// the admin API; its refusals (409 not_failed, 404) show beside the action.

const secret = webhookSecret();

describeUnlessSkipped('console webhook deliveries in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  let hooks: Receiver;
  let writer: AdminClient;
  let page: Page;

  before(async () => {
    hooks = await startReceiver({ answer: 204 });
    suite = await startConsole({ WEBHOOK_URLS: hooks.url, WEBHOOK_SECRET: secret.setting, WEBHOOK_MAX_ATTEMPTS: '2', WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_EVENTS: 'signup' });
    writer = new AdminClient(suite.adminBase, (await newKey(suite.server, 'write')).secret);
    // The administrator's own signup, taken by the receiver.
    await until('nothing undelivered', async () => (await writer.get('/webhook-deliveries')).body.data.length === 0);
    page = await suite.signedInPage();
  });
  after(async () => {
    await suite?.close();
    await hooks?.close();
  });

  const db = () => suite.server.app.deps.db;
  const deliveryRow = (id: number) => db().selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  const rows = () => page.locator('#deliveries tbody tr');

  /** Makes users through the admin API while the receiver refuses: their signups' deliveries once pending after a first failed attempt. */
  async function refusedSignups(count: number): Promise<{ id: number; eventId: string }[]> {
    hooks.answer = 500;
    const made = [];
    for (let i = 0; i < count; i++) {
      const user = (await writer.post('/users', { email: uniqueEmail('hook') })).body.data;
      const [signup] = await listAuditEvents(db(), { userId: user.id, types: ['signup'], limit: 1 });
      const row = await until('the first attempt failed', async () => {
        const r = await db().selectFrom('webhook_deliveries').selectAll().where('event_id', '=', signup!.eventId).executeTakeFirst();
        return r?.status === 'pending' && r.attempts === 1 && r.lease_token === null && r;
      });
      made.push({ id: row.id, eventId: row.event_id });
    }
    return made;
  }

  /** Moves the clock past the retry: the second attempt fails too, and the deliveries are failed. */
  async function failed(deliveries: { id: number }[]): Promise<void> {
    suite.server.clock.advance(maxRetryDelayMs(1));
    for (const d of deliveries) await until(`delivery ${d.id} failed`, async () => (await deliveryRow(d.id))?.status === 'failed');
  }

  async function show(status: string): Promise<void> {
    await page.click(`#status-${status}`);
    await page.waitForSelector(`#webhooks[data-status="${status}"]`);
  }

  /** Waits for the list to show exactly these deliveries. */
  async function listed(ids: number[]): Promise<void> {
    const want = ids.map(String).sort().join(',');
    await page.waitForFunction((w) => [...document.querySelectorAll('#deliveries tbody tr')].map((r) => r.getAttribute('data-delivery')).sort().join(',') === w, want);
  }

  it('says nothing is waiting when every delivery went through, and lists the delivered ones', async () => {
    await page.click('#nav-webhooks');
    await page.waitForSelector('#webhooks-none');
    assert.match((await page.textContent('#webhooks-none'))!, /Nothing is waiting/);
    assert.match((await page.textContent('#webhooks-config'))!, new RegExp(`${hooks.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*2 attempts`));
    assert.equal(await page.getAttribute('#status-undelivered', 'aria-current'), 'true');
    await screenshots(page, 'webhooks-empty');

    await show('delivered');
    assert.match(page.url(), /#\/webhooks\?status=delivered$/);
    await page.waitForSelector('#deliveries tbody tr[data-status="delivered"]');
    const row = page.locator('#deliveries tbody tr').first();
    assert.match((await row.textContent())!, /Signed up/);
    assert.match((await row.textContent())!, /delivered/);
    assert.ok(await row.locator('time').first().getAttribute('datetime'), 'created with its instant');
    assert.match((await row.locator('time').first().textContent())!, /UTC|GMT/, 'times carry their zone');
  });

  it('shows a refused delivery pending with its next attempt, then failed, and sends one again to the receiver', async () => {
    const [a, b, c] = await refusedSignups(3);
    await show('pending');
    await listed([a!.id, b!.id, c!.id]);
    const pending = page.locator(`#deliveries tr[data-delivery="${a!.id}"]`);
    assert.match((await pending.textContent())!, /pending/);
    assert.match((await pending.textContent())!, /HTTP 500/);
    assert.equal(await pending.locator('td:nth-child(4)').textContent(), '1');
    const next = await pending.locator('td:nth-child(5) time').getAttribute('datetime');
    assert.ok(next && Date.parse(next) > suite.server.clock.now() - 1000, `next attempt ${next}`);
    assert.equal(await pending.locator('input.select').count(), 0, 'a pending one is not offered to send again');
    await screenshots(page, 'webhooks-pending');

    await failed([a!, b!, c!]);
    await show('failed');
    assert.match(page.url(), /status=failed/);
    await listed([a!.id, b!.id, c!.id]);
    assert.match((await page.textContent('#failed-count'))!, /3 failed deliveries/);
    await screenshots(page, 'webhooks-list');

    hooks.answer = 204;
    await page.click(`#deliveries tr[data-delivery="${a!.id}"] td:last-child button`);
    await page.waitForSelector('#confirm');
    const question = (await page.textContent('#confirm-question'))!;
    assert.ok(question.includes(`#${a!.id}`) && question.includes(hooks.url) && question.includes('Signed up'), question);
    await screenshots(page, 'webhooks-confirm');
    await page.click('#confirm-yes');
    await afterReauthentication(page, '#requeue-notice');
    assert.match((await page.textContent('#requeue-notice'))!, /1 delivery will be sent again/);
    await until('the receiver took it', () => hooks.delivered().get(a!.eventId) === 1);
    await until('recorded as delivered', async () => (await writer.get('/webhook-deliveries?status=delivered')).body.data.some((d: any) => d.id === a!.id && d.attempts === 1));
    await listed([b!.id, c!.id]);
  });

  it('sends the selected ones again, refusing the lot when one of them is no longer failed (409)', async () => {
    const failedNow = (await writer.get('/webhook-deliveries?status=failed')).body.data.map((d: any) => d.id);
    assert.equal(failedNow.length, 2);
    const [b, c] = failedNow.sort((x: number, y: number) => x - y);
    await page.check(`#deliveries tr[data-delivery="${b}"] input.select`);
    await page.check(`#deliveries tr[data-delivery="${c}"] input.select`);
    assert.match((await page.textContent('#requeue-selected'))!, /2 selected/);
    await page.click('#requeue-selected');
    const question = (await page.textContent('#confirm-question'))!;
    assert.ok(question.includes(`#${b}`) && question.includes(`#${c}`) && /2 failed deliveries/.test(question), question);
    // Meanwhile the CLI or another administrator sent one of them again.
    assert.equal((await writer.post('/webhook-deliveries/requeue', { ids: [b] })).status, 200);
    await page.click('#confirm-yes');
    await afterReauthentication(page, '#requeue-selected-error');
    assert.match((await page.textContent('#requeue-selected-error'))!, new RegExp(`${b}`));
    assert.equal((await deliveryRow(c))!.status, 'failed', 'none of them was requeued');
    await listed([c]);
    await screenshots(page, 'webhooks-refused');

    await page.check(`#deliveries tr[data-delivery="${c}"] input.select`);
    await page.click('#requeue-selected');
    assert.match((await page.textContent('#confirm-question'))!, new RegExp(`failed delivery #${c} again`));
    await page.click('#confirm-yes');
    await afterReauthentication(page, '#requeue-notice');
    await until('both delivered', async () => (await deliveryRow(b))!.status === 'delivered' && (await deliveryRow(c))!.status === 'delivered');
    await page.waitForSelector('#webhooks-none');
    assert.match((await page.textContent('#webhooks-none'))!, /No delivery has failed/);
  });

  it('says so when a delivery is gone (404), and sends every failed one again', async () => {
    const [d, e, f] = await refusedSignups(3);
    await failed([d!, e!, f!]);
    await show('undelivered');
    await listed([d!.id, e!.id, f!.id]);
    await page.click(`#deliveries tr[data-delivery="${d!.id}"] td:last-child button`);
    await page.waitForSelector('#confirm');
    // Swept meanwhile.
    await db().deleteFrom('webhook_deliveries').where('id', '=', d!.id).execute();
    await page.click('#confirm-yes');
    await afterReauthentication(page, '#requeue-error');
    assert.match((await page.textContent('#requeue-error'))!, new RegExp(`${d!.id}`));
    await listed([e!.id, f!.id]);

    hooks.answer = 204;
    await page.click('#requeue-all');
    assert.match((await page.textContent('#confirm-question'))!, /Send all 2 failed deliveries again/);
    await page.click('#confirm-yes');
    await afterReauthentication(page, '#requeue-notice');
    assert.match((await page.textContent('#requeue-notice'))!, /2 deliveries will be sent again/);
    await until('the receiver took both', () => hooks.delivered().get(e!.eventId) === 1 && hooks.delivered().get(f!.eventId) === 1);
    await until('none failed', async () => (await writer.get('/webhook-deliveries?status=failed')).body.data.length === 0);
    await page.reload();
    await page.waitForSelector('#webhooks-none');
    assert.equal(await page.locator('#requeue-all').count(), 0, 'nothing left to send again');
  });

  it('pages through older deliveries and back, the page in the URL', async () => {
    const now = suite.server.clock.now();
    await db()
      .insertInto('webhook_deliveries')
      .values(Array.from({ length: 60 }, (_, i) => ({ event_id: `evt_page_${i}`, url: hooks.url, payload: JSON.stringify({ type: 'signup' }), status: 'delivered', attempts: 1, next_attempt_at: now, lease_token: null, last_error: null, created_at: now - 86_400_000 - i * 1000, finished_at: now - 86_400_000 })))
      .execute();
    await show('delivered');
    await page.waitForFunction(() => document.querySelectorAll('#deliveries tbody tr').length === 50);
    const first = await rows().first().getAttribute('data-delivery');
    await page.click('#webhooks-older');
    await page.waitForFunction((id) => !document.querySelector(`#deliveries tr[data-delivery="${id}"]`) && document.querySelectorAll('#deliveries tbody tr').length > 0, first);
    assert.match(page.url(), /cursor=/);
    const delivered = (await writer.get('/webhook-deliveries?status=delivered&limit=1000')).body.data.length;
    assert.equal(await rows().count(), delivered - 50);
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll('#deliveries tbody tr').length === n, delivered - 50);
    await page.click('#webhooks-newer');
    await page.waitForFunction((id) => Boolean(document.querySelector(`#deliveries tr[data-delivery="${id}"]`)), first);
    assert.match(page.url(), /#\/webhooks\?status=delivered$/);
  });
});
