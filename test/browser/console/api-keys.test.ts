import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { uniqueEmail } from '../../support/accounts.js';
import { AdminClient, assertAdminError } from '../../admin/support.js';
import { listAuditEvents } from '../../../src/store/audit-events.js';
import { afterReauthentication, screenshots, startConsole, type ConsoleSuite } from './support.js';

// The admin API keys screen in Chromium: a key made here is shown once,
// copied, and works with `Authorization: Bearer` against the admin API with
// its scope; its expiry moves later, to a time the server's clock then
// passes (expired, refused), and to never (working again); revoked, it is
// refused at once. Refusals show beside their fields.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describeUnlessSkipped('console admin API keys in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  let page: Page;
  let reports: { id: number; secret: string };

  before(async () => {
    suite = await startConsole();
    page = await suite.signedInPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.adminBase });
  });
  after(async () => suite?.close());

  const keyClient = (secret: string) => new AdminClient(suite.adminBase, secret);
  const listedKey = async (id: number) => (await keyClient(reports.secret).get('/api-keys')).body.data.find((k: any) => k.id === id);
  const row = (id: number) => page.locator(`#keys tr[data-key="${id}"]`);

  /** A time on the server's clock as the browser's datetime-local input takes it (minutes, the browser's zone), and the instant it stands for. */
  async function localInput(at: number): Promise<{ value: string; iso: string }> {
    const minute = Math.floor(at / MINUTE) * MINUTE;
    // No named helper inside: the page would not know tsx's __name.
    const value = await page.evaluate((ms) => {
      const d = new Date(ms);
      return [d.getFullYear(), '-', d.getMonth() + 1, '-', d.getDate(), 'T', d.getHours(), ':', d.getMinutes()].map((p) => (typeof p === 'number' && p < 10 ? `0${p}` : String(p))).join('');
    }, minute);
    return { value, iso: new Date(minute).toISOString() };
  }

  it('says there are no keys yet', async () => {
    await page.click('#nav-api-keys');
    await page.waitForSelector('#keys-none');
    assert.match((await page.textContent('#keys-none'))!, /No keys yet/);
    assert.match((await page.textContent('#key-scope-read-says'))!, /GET requests only/);
    assert.match((await page.textContent('#key-scope-write-says'))!, /cannot make, re-date or revoke keys/);
    await screenshots(page, 'api-keys-empty');
  });

  it('refuses a key without a name or with a past expiry, beside the field', async () => {
    await page.click('#key-create-submit');
    await afterReauthentication(page, '#key-name-error');
    assert.equal(await page.getAttribute('#key-name', 'aria-invalid'), 'true');
    await page.fill('#key-name', 'Reports job');
    await page.fill('#key-expires', '2020-01-01T00:00');
    await page.click('#key-create-submit');
    await page.waitForSelector('#key-expires-error');
    assert.equal(await page.locator('#key-name-error').count(), 0);
    assert.equal((await suite.server.app.deps.db.selectFrom('admin_api_keys').select('id').execute()).length, 0, 'no key was made');
  });

  it('makes a read key, shows its secret once with a copy button, and the key reads the admin API', async () => {
    const expires = await localInput(suite.server.clock.now() + 30 * DAY);
    await page.fill('#key-name', 'Reports job');
    await page.check('#key-scope-read');
    await page.fill('#key-expires', expires.value);
    await page.click('#key-create-submit');
    await afterReauthentication(page, '#key-secret');
    const secret = await page.inputValue('#key-secret-value');
    assert.match(secret, /^hak_/);
    assert.match((await page.textContent('#key-secret-value-warning'))!, /shown only this once/);
    await page.click('#key-secret-value-copy');
    await page.waitForSelector('#key-secret-value-copied');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await screenshots(page, 'api-keys-secret');
    await page.click('#key-secret-done');
    await page.waitForSelector('#key-secret', { state: 'detached' });
    assert.equal((await page.content()).includes(secret), false, 'the secret is gone from the page');

    const reader = keyClient(secret);
    assert.equal((await reader.get('/users?limit=1')).status, 200);
    assertAdminError(await reader.post('/users', { email: uniqueEmail('reader') }), 403, 'insufficient_scope');
    const listed = (await reader.get('/api-keys')).body.data;
    assert.equal(listed.length, 1);
    assert.deepEqual([listed[0].name, listed[0].scope, listed[0].state, listed[0].expires_at], ['Reports job', 'read', 'active', expires.iso]);
    reports = { id: listed[0].id, secret };
    const [made] = await listAuditEvents(suite.server.app.deps.db, { types: ['admin_key.created'], limit: 1 });
    assert.deepEqual([(made!.detail as any).actor, (made!.detail as any).actor_id], ['admin_console', suite.admin.id]);

    // The list shows it, with the use just made.
    await page.reload();
    await page.waitForSelector(`#keys tr[data-key="${reports.id}"][data-state="active"]`);
    const text = (await row(reports.id).textContent())!;
    assert.ok(text.includes('Reports job') && text.includes(secret.slice(0, 12)) && text.includes('read') && text.includes('active'), text);
    assert.equal(await row(reports.id).locator('td:nth-child(4) time').count(), 1, 'last used');
    assert.equal(await row(reports.id).locator('td.expires time').getAttribute('datetime'), expires.iso);
  });

  it('makes a write key that never expires, which changes things through the admin API', async () => {
    await page.fill('#key-name', 'Provisioning');
    await page.check('#key-scope-write');
    await page.click('#key-create-submit');
    await afterReauthentication(page, '#key-secret');
    const secret = await page.inputValue('#key-secret-value');
    await page.click('#key-secret-done');
    const made = await keyClient(secret).post('/users', { email: uniqueEmail('provisioned') });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const key = (await keyClient(secret).get('/api-keys')).body.data.find((k: any) => k.name === 'Provisioning');
    assert.deepEqual([key.scope, key.expires_at], ['write', null]);
    await page.waitForSelector(`#keys tr[data-key="${key.id}"]`);
    assert.match((await row(key.id).locator('td.expires').textContent())!, /never/);
  });

  it('changes when a key expires: refuses a past time, takes a later one, expires with the clock, and never', async () => {
    await row(reports.id).locator('button.change-expiry').click();
    await page.waitForSelector('#expiry-dialog');
    assert.equal(await page.isChecked('#expiry-never'), false);
    await page.fill('#expiry-at', '2020-01-01T00:00');
    await page.click('#expiry-save');
    await afterReauthentication(page, '#expiry-at-error');
    assert.match((await page.textContent('#expiry-at-error'))!, /past|future/i);
    await screenshots(page, 'api-keys-expiry');

    const soon = await localInput(suite.server.clock.now() + 2 * MINUTE);
    await page.fill('#expiry-at', soon.value);
    await page.click('#expiry-save');
    await page.waitForSelector('#expiry-dialog', { state: 'detached' });
    await page.waitForSelector(`#keys tr[data-key="${reports.id}"] td.expires time[datetime="${soon.iso}"]`);
    assert.equal((await listedKey(reports.id)).expires_at, soon.iso);

    // Past it, the key is expired: refused, and shown so.
    suite.server.clock.advance(3 * MINUTE);
    assertAdminError(await keyClient(reports.secret).get('/users?limit=1'), 401, 'invalid_api_key');
    await page.reload();
    await page.waitForSelector(`#keys tr[data-key="${reports.id}"][data-state="expired"]`);
    assert.match((await row(reports.id).textContent())!, /expired/);

    await row(reports.id).locator('button.change-expiry').click();
    await page.check('#expiry-never');
    await page.click('#expiry-save');
    await afterReauthentication(page, `#keys tr[data-key="${reports.id}"][data-state="active"]`);
    assert.equal((await listedKey(reports.id)).expires_at, null);
    assert.equal((await keyClient(reports.secret).get('/users?limit=1')).status, 200, 'it works again');
  });

  it('revokes a key behind a confirmation naming it, and the key is refused at once', async () => {
    // Past ACCOUNT_REAUTHENTICATION_TIMEOUT: revoking asks for the password first.
    suite.server.clock.advance(301_000);
    await row(reports.id).locator('button.danger').click();
    await page.waitForSelector('#confirm');
    const question = (await page.textContent('#confirm-question'))!;
    assert.ok(question.includes('Reports job') && question.includes(reports.secret.slice(0, 12)), question);
    await screenshots(page, 'api-keys-confirm');
    await page.click('#confirm-yes');
    await page.waitForSelector('#reauthenticate');
    await afterReauthentication(page, `#keys tr[data-key="${reports.id}"][data-state="revoked"]`);
    assert.match((await page.textContent('#keys-notice'))!, /Reports job/);
    assertAdminError(await keyClient(reports.secret).get('/users?limit=1'), 401, 'invalid_api_key');
    assert.equal(await row(reports.id).locator('button').count(), 0, 'a revoked key has nothing left to change');
    assert.equal(await row(reports.id).locator('td:nth-child(6) time').count(), 1, 'revoked at');
    await screenshots(page, 'api-keys-list');
  });
});
