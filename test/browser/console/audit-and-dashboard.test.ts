import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { signedUp, uniqueEmail } from '../../support/accounts.js';
import { insertAuditEvents } from '../../../src/store/audit-events.js';
import { findUserByEmail } from '../../../src/store/users.js';
import { screenshots, startConsole, type ConsoleSuite } from './support.js';

// The dashboard (home) and the audit trail in Chromium: charts drawn on
// canvas with the totals of events made at known times, the range switch in
// the URL, a table for each chart, no CSP complaint; the audit list with its
// filters and pages in the URL, a link to the user, and a CSV export of the
// filtered rows.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// The password-reset request is limited to one a minute per address: a second one is a refusal to count.
const ENV = { ACCOUNT_RATE_LIMITS: JSON.stringify({ reset_password: '1/m/key', login: false, login_failed: false, signup: false, reauthenticate: false }) };

describeUnlessSkipped('console dashboard and audit trail in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  let carol: { id: number; email: string };
  let failedAt: number;

  before(async () => {
    suite = await startConsole(ENV);
    const { server } = suite;
    // Three days ago: three signups (each signs in too).
    server.clock.advance(-3 * DAY);
    const first = await signedUp(server.client('app'));
    await signedUp(server.client('app'));
    await signedUp(server.client('app'));
    // Five hours ago: two failed sign-ins as the first of them.
    server.clock.advance(3 * DAY - 5 * HOUR);
    failedAt = server.clock.now();
    for (let i = 0; i < 2; i++) assert.equal((await server.client('app').post('/auth/login', { email: first.email, password: 'not-the-password' })).status, 400);
    server.clock.advance(5 * HOUR);
    // Now: a reset request for the first user, and a second one refused by the limit.
    assert.equal((await server.client('app').post('/auth/password/request', { email: first.email })).status, 200);
    assert.equal((await server.client('app').post('/auth/password/request', { email: first.email })).status, 429);
    carol = { id: (await findUserByEmail(server.app.deps.db, first.email))!.id, email: first.email };
    // Sixty sessions ended for Carol an hour ago: more than a page of the audit screen.
    const at = server.clock.now() - HOUR;
    await insertAuditEvents(
      server.app.deps.db,
      Array.from({ length: 60 }, (_, i) => ({ eventId: `evt_browser_${i}`, occurredAt: at - i * 1000, type: 'session.revoked', userId: carol.id, ip: '192.0.2.7', userAgent: 'test', outcome: 'success' as const, detail: { sessions: 1 } })),
    );
  });
  after(async () => suite?.close());

  /** A signed-in page in a time zone half an hour off UTC, collecting what the browser complains of. */
  async function page(): Promise<{ page: Page; complaints: string[] }> {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Asia/Kolkata', acceptDownloads: true });
    const p = await context.newPage();
    const complaints: string[] = [];
    // The sign-in form's first GET /me answers 401, as it should; anything else (a CSP refusal) counts.
    p.on('console', (message) => message.type() === 'error' && !/status of 401/.test(message.text()) && complaints.push(message.text()));
    p.on('pageerror', (error) => complaints.push(error.message));
    await suite.signIn(p, suite.admin.email, suite.admin.secret);
    return { page: p, complaints };
  }

  const total = async (p: Page, series: string) => Number((await p.textContent(`#series-${series}-total`))!.replace(/\D/g, ''));

  it('opens on the dashboard: four charts on canvas with their totals and tables, ranges in the URL, no CSP error', async () => {
    const { page: p, complaints } = await page();
    await p.waitForSelector('#dashboard-charts[data-range="day"]');
    assert.equal(await p.getAttribute('#nav-dashboard', 'aria-current'), 'page');
    assert.equal(await p.locator('#dashboard-charts canvas').count(), 4);
    assert.equal(await total(p, 'failed_logins'), 2);
    assert.equal(await total(p, 'rate_limit_refusals'), 1);
    // The administrator's own signup, this morning; the three others were three days ago.
    assert.equal(await total(p, 'signups'), 1);
    const daySignIns = await total(p, 'sign_ins');
    // The table gives each bucket's count: the two failures in the hour they happened.
    const bucket = new Date(Math.floor(failedAt / HOUR) * HOUR).toISOString();
    assert.equal(await p.textContent(`#series-failed_logins-table tr:has(time[datetime="${bucket}"]) td:nth-child(2)`), '2');
    // Times are the browser's: bucket edges on UTC hours read as half past in India.
    assert.match((await p.textContent('#series-failed_logins-table tbody tr td'))!, /:30/);
    assert.match((await p.textContent('#dashboard-period'))!, /Asia\/(Kolkata|Calcutta)/);
    assert.match((await p.textContent('#series-failed_logins-summary'))!, /^Failed sign-ins: 2 in all/);
    await p.click('#series-failed_logins summary');
    await screenshots(p, 'dashboard-day');
    await p.click('#series-failed_logins summary');

    await p.click('#range-week');
    await p.waitForSelector('#dashboard-charts[data-range="week"]');
    assert.match(p.url(), /#\/dashboard\?range=week$/);
    assert.equal(await p.getAttribute('#range-week', 'aria-current'), 'true');
    assert.equal(await total(p, 'signups'), 4);
    assert.equal((await total(p, 'sign_ins')) - daySignIns, 3, 'the three signups of three days ago signed in');
    assert.equal(await p.locator('#series-signups-table tbody tr').count(), 28);
    await screenshots(p, 'dashboard-week');

    await p.click('#range-month');
    await p.waitForSelector('#dashboard-charts[data-range="month"]');
    assert.equal(await p.locator('#series-signups-table tbody tr').count(), 30);
    assert.equal(await total(p, 'signups'), 4);
    await screenshots(p, 'dashboard-month');
    // The URL keeps the range over a reload.
    await p.reload();
    await p.waitForSelector('#dashboard-charts[data-range="month"]');
    assert.deepEqual(complaints, []);
    await p.context().close();
  });

  it('lists the audit trail with readable names, filters it, pages in the URL, links to the user and exports the filtered rows', async () => {
    const { page: p, complaints } = await page();
    await p.click('#nav-audit');
    await p.waitForSelector('#audit-events tbody tr');
    assert.equal(await p.locator('#audit-events tbody tr').count(), 50);
    assert.match((await p.textContent('#audit-events'))!, /Session ended/);
    assert.match((await p.textContent('#filter-zone'))!, /Asia\/(Kolkata|Calcutta)/);
    await screenshots(p, 'audit-list');

    // Failed sign-ins of Carol, by her address.
    await p.click('#filter-type summary');
    await p.check('#filter-type input[value="login.failed"]');
    assert.equal(await p.textContent('#filter-type summary'), 'Sign-in failed');
    await p.fill('#filter-user', carol.email);
    await p.selectOption('#filter-outcome', 'failure');
    await p.click('#filter-apply');
    await p.waitForFunction(() => document.querySelectorAll('#audit-events tbody tr').length === 2);
    assert.deepEqual(await p.locator('#audit-events tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type'))), ['login.failed', 'login.failed']);
    assert.match(p.url(), /type=login\.failed/);
    assert.match((await p.textContent('#audit-events tbody tr'))!, /Sign-in failed/);
    assert.match((await p.textContent('#audit-events tbody tr'))!, /failed/);
    await p.click('#audit-events tbody tr:first-child details summary');
    assert.match((await p.textContent('#audit-events tbody tr:first-child dl'))!, /invalid_password/);
    await screenshots(p, 'audit-filtered');

    // The export has the filtered rows, in a file named for it.
    const [download] = await Promise.all([p.waitForEvent('download'), p.click('#audit-export')]);
    assert.match(download.suggestedFilename(), /^audit-events-\d{8}-\d{6}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
    assert.equal(csv[0], 'id,event_id,occurred_at,type,user_id,outcome,actor,actor_id,ip,user_agent,detail');
    assert.equal(csv.length, 3);
    assert.ok(csv.slice(1).every((line) => line.split(',')[3] === 'login.failed' && line.split(',')[4] === String(carol.id)));

    // Several types at once, ticked in their groups: her failures and her signup, the list in the URL.
    await p.selectOption('#filter-outcome', '');
    await p.check('#filter-type fieldset[data-group="sign_in"] input[value="signup"]');
    assert.equal(await p.textContent('#filter-type summary'), 'Sign-in failed, Signed up');
    await screenshots(p, 'audit-types-open');
    await p.click('#filter-apply');
    await p.waitForFunction(() => document.querySelectorAll('#audit-events tbody tr').length === 3);
    assert.deepEqual((await p.locator('#audit-events tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type')))).sort(), ['login.failed', 'login.failed', 'signup']);
    assert.match(p.url(), /[?&]type=login\.failed,signup(&|$)/);
    await p.reload();
    await p.waitForFunction(() => document.querySelectorAll('#audit-events tbody tr').length === 3);
    assert.equal(await p.isChecked('#filter-type input[value="signup"]'), true);
    assert.equal(await p.isChecked('#filter-type input[value="login.failed"]'), true);
    assert.equal(await p.isChecked('#filter-type input[value="login.succeeded"]'), false);
    assert.equal(await p.textContent('#filter-type summary'), 'Sign-in failed, Signed up');
    // A third makes the closed filter count them; "Any event" unticks every one.
    await p.click('#filter-type summary');
    await p.check('#filter-type input[value="login.succeeded"]');
    assert.equal(await p.textContent('#filter-type summary'), '3 events');
    await p.click('#filter-type-any');
    assert.equal(await p.locator('#filter-type input:checked').count(), 0);
    assert.equal(await p.textContent('#filter-type summary'), 'Any event');
    await p.click('#filter-type summary');
    await p.goto(`${suite.consoleUrl}#/audit?type=login.failed&user=${encodeURIComponent(carol.email)}`);
    await p.waitForFunction(() => document.querySelectorAll('#audit-events tbody tr').length === 2);

    // The user is a link to their page.
    await p.click(`#audit-events tbody tr:first-child a.user`);
    await p.waitForURL(new RegExp(`#/users/${carol.id}$`));

    // Pages: 60 ended sessions, 50 then 10, the page in the URL across a reload.
    await p.goto(`${suite.consoleUrl}#/audit?type=session.revoked`);
    await p.waitForFunction(() => document.querySelectorAll('#audit-events tbody tr').length === 50);
    await p.click('#audit-older');
    await p.waitForFunction(() => document.querySelectorAll('#audit-events tbody tr').length === 10);
    assert.match(p.url(), /cursor=/);
    await p.reload();
    await p.waitForFunction(() => document.querySelectorAll('#audit-events tbody tr').length === 10);
    assert.match((await p.textContent('#audit-page'))!, /Page 2/);
    assert.equal(await p.locator('#audit-older').count(), 0);
    await p.click('#audit-newer');
    await p.waitForFunction(() => document.querySelectorAll('#audit-events tbody tr').length === 50);
    assert.equal(await p.locator('#audit-newer').count(), 0);

    // An address nobody has is said so.
    await p.fill('#filter-user', uniqueEmail('nobody'));
    await p.click('#filter-apply');
    await p.waitForSelector('#audit-error');
    assert.deepEqual(complaints, []);
    await p.context().close();
  });
});
