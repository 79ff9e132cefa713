import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { PASSWORD, nthMail, uniqueEmail } from '../../support/accounts.js';
import { resetKeyFromMail } from '../../account/helpers.js';
import { AdminClient, newKey } from '../../admin/support.js';
import { insertUsersInBulk } from '../../../src/store/users.js';
import { afterReauthentication, screenshots, startConsole, type ConsoleSuite } from './support.js';

// The users list in Chromium: search (the exact address filter for an
// address), filters, order, the total, pages forward and back, all kept in
// the URL through a reload and the back button; and creating a user with a
// password or an invitation, refusals shown by their fields.
describeUnlessSkipped('console users in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  let api: AdminClient;
  before(async () => {
    suite = await startConsole();
    api = new AdminClient(suite.adminBase, (await newKey(suite.server, 'write')).secret);
  });
  after(async () => suite?.close());

  /** Users with a tag of their own in username and address, made a minute apart; the even ones verified, the second disabled. */
  async function seed(count: number): Promise<{ tag: string; ids: number[] }> {
    const tag = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      suite.server.clock.advance(60_000);
      const made = await api.post('/users', { username: `${tag}_${i}`, email: `${tag}_${i}@example.com`, email_verified: i % 2 === 0, first_name: `Person ${i}` });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      ids.push(made.body.data.id);
    }
    await api.patch(`/users/${ids[1]}`, { is_active: false });
    return { tag, ids };
  }

  const shown = (page: Page) => page.$$eval('#results tbody tr', (rows) => rows.map((r) => Number(r.getAttribute('data-user'))));
  const total = (page: Page) => page.textContent('#users-total');
  const hashQuery = (page: Page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.split('?')[1] ?? '')));
  /** Waits until the list shows these users, in this order. */
  async function showing(page: Page, ids: number[]): Promise<void> {
    await page.waitForFunction((wanted) => JSON.stringify([...document.querySelectorAll('#results tbody tr')].map((r) => Number(r.getAttribute('data-user')))) === wanted, JSON.stringify(ids));
  }
  async function search(page: Page, text: string): Promise<void> {
    await page.fill('#search-text', text);
    await page.click('#search-submit');
  }

  /** A signed-in console on the users list, a click away from home (the dashboard). */
  async function usersList(): Promise<Page> {
    const page = await suite.signedInPage();
    await page.click('#nav-users');
    await page.waitForSelector('#search');
    return page;
  }

  it('filters, sorts and counts, and keeps all of it through a reload and back from a user', async () => {
    const { tag, ids } = await seed(6);
    const page = await usersList();
    await search(page, tag);
    await showing(page, [...ids].reverse());
    assert.equal(await total(page), '6 users');
    assert.match((await page.textContent('#search-kind'))!, /part of a name/);

    await page.selectOption('#filter-verified', 'true');
    await showing(page, [ids[4]!, ids[2]!, ids[0]!]);
    assert.equal(await total(page), '3 users');
    await page.selectOption('#filter-active', 'true');
    await page.selectOption('#sort', 'created_at');
    await showing(page, [ids[0]!, ids[2]!, ids[4]!]);
    assert.deepEqual(await hashQuery(page), { q: tag, verified: 'true', active: 'true', order: 'created_at' });
    await page.selectOption('#filter-verified', 'false');
    await showing(page, [ids[3]!, ids[5]!]);
    assert.equal(await total(page), '2 users');
    await page.selectOption('#filter-active', 'false');
    await showing(page, [ids[1]!]);
    assert.equal(await total(page), '1 user');
    assert.equal(await page.textContent(`tr[data-user="${ids[1]}"] .badge.off`), 'disabled');
    await page.selectOption('#filter-active', '');
    await showing(page, [ids[1]!, ids[3]!, ids[5]!]);
    await screenshots(page, 'users-filtered');

    await page.reload();
    await showing(page, [ids[1]!, ids[3]!, ids[5]!]);
    assert.equal(await page.inputValue('#search-text'), tag);
    assert.equal(await page.inputValue('#filter-verified'), 'false');
    assert.equal(await page.inputValue('#sort'), 'created_at');

    // To a user and back: the same list, by the browser's back and by the way back the list leaves for the user page.
    const listHash = await page.evaluate(() => location.hash);
    await page.click(`tr[data-user="${ids[3]}"] a`);
    await page.waitForFunction((id) => location.hash === `#/users/${id}`, ids[3]);
    await page.goBack();
    await showing(page, [ids[1]!, ids[3]!, ids[5]!]);
    assert.equal(await page.evaluate(() => location.hash), listHash);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('console:users-list')), listHash);
    // The user page's own way back returns to that place too, not to the bare list.
    await page.click(`tr[data-user="${ids[5]}"] a`);
    await page.waitForSelector(`#user-page[data-user="${ids[5]}"]`);
    assert.equal(await page.getAttribute('#back-to-list', 'href'), listHash);
    await page.click('#back-to-list');
    await showing(page, [ids[1]!, ids[3]!, ids[5]!]);
    assert.equal(await page.evaluate(() => location.hash), listHash);
    assert.equal(await page.inputValue('#filter-verified'), 'false');
    await page.close();
  });

  it('pages forward and back, the place in the URL', async () => {
    const tag = `p${Date.now().toString(36)}`;
    const ids = await suite.server.app.deps.db.transaction().execute((tx) =>
      insertUsersInBulk(tx, Array.from({ length: 30 }, (_, i) => ({ username: `${tag}_${i}`, email: `${tag}_${i}@example.com`, verified: true })), suite.server.clock.now()),
    );
    const page = await usersList();
    await search(page, tag);
    await page.selectOption('#page-size', '25');
    await page.selectOption('#sort', 'id');
    await showing(page, ids.slice(0, 25));
    assert.equal(await total(page), '30 users · page 1 of 2');
    assert.equal(await page.isDisabled('#page-prev'), true);

    await page.click('#page-next');
    await showing(page, ids.slice(25));
    assert.equal(await total(page), '30 users · page 2 of 2');
    assert.equal(await page.isDisabled('#page-next'), true);
    assert.ok((await hashQuery(page)).cursor);
    await page.reload();
    await showing(page, ids.slice(25));

    await page.click('#page-prev');
    await showing(page, ids.slice(0, 25));
    assert.equal((await hashQuery(page)).cursor, undefined, 'page 1 is the first page itself');
    // A page is an entry of the history: back returns to page 2, forward to page 1.
    await page.goBack();
    await showing(page, ids.slice(25));
    await page.goForward();
    await showing(page, ids.slice(0, 25));

    // Newest first, backward from the last page.
    await page.selectOption('#sort', '-created_at');
    await showing(page, [...ids].reverse().slice(0, 25));
    await page.click('#page-next');
    await showing(page, [...ids].reverse().slice(25));
    await page.click('#page-prev');
    await showing(page, [...ids].reverse().slice(0, 25));
    await page.close();
  });

  it('searches by the exact address, id and phone filters, and says when nothing matches', async () => {
    const { tag, ids } = await seed(2);
    const page = await usersList();
    const asked = page.waitForRequest((r) => r.url().includes('/console/api/v1/users?') && r.url().includes('email='));
    await search(page, `${tag}_1@EXAMPLE.com`);
    const url = new URL((await asked).url());
    assert.equal(url.searchParams.get('email'), `${tag}_1@EXAMPLE.com`);
    assert.equal(url.searchParams.get('q'), null);
    await showing(page, [ids[1]!]);
    assert.match((await page.textContent('#search-kind'))!, /exact address/);

    const byId = page.waitForRequest((r) => r.url().includes(`id=${ids[0]}`));
    await search(page, String(ids[0]));
    await byId;
    await showing(page, [ids[0]!]);

    const byPhone = page.waitForRequest((r) => r.url().includes('phone='));
    await search(page, '+1 5');
    await byPhone;
    await page.waitForSelector('#search-error');
    assert.equal(await page.getAttribute('#search-text', 'aria-invalid'), 'true');

    await search(page, `${tag}-nobody`);
    await page.selectOption('#filter-admin', 'true');
    await page.waitForSelector('#users-none');
    assert.equal(await total(page), '0 users');
    await screenshots(page, 'users-empty');
    await page.click('#clear-filters');
    await page.waitForFunction(() => location.hash === '#/users');
    assert.equal(await page.inputValue('#search-text'), '');
    assert.equal(await page.inputValue('#filter-admin'), '');
    await page.waitForSelector('#results');
    await page.close();
  });

  /** The new user form, from the list's button. */
  async function createForm(): Promise<Page> {
    const page = await usersList();
    await page.click('#new-user');
    await page.waitForSelector('#create-form');
    return page;
  }

  /** After Create: confirms the password when asked, then waits for the new user's page; answers its id. */
  async function createdUser(page: Page): Promise<number> {
    await page.waitForFunction(() => /^#\/users\/\d+$/.test(location.hash) || document.querySelector('#reauthenticate'));
    if (await page.$('#reauthenticate')) {
      await page.fill('#reauth-password', PASSWORD);
      await page.click('#reauth-submit');
    }
    await page.waitForFunction(() => /^#\/users\/\d+$/.test(location.hash));
    return Number(await page.evaluate(() => location.hash.split('/').pop()));
  }

  it('creates a user with a password, who then logs in', async () => {
    const page = await createForm();
    const email = uniqueEmail('made');
    await page.fill('#create-email', email);
    await page.fill('#create-first_name', 'Grace');
    await page.fill('#create-last_name', 'Hopper');
    await page.check('#create-way-password');
    await page.fill('#create-password', 'a sturdy long passphrase');
    await page.click('#create-submit');
    const id = await createdUser(page);
    const made = (await api.get(`/users?email=${encodeURIComponent(email)}`)).body.data;
    assert.equal(made.length, 1);
    assert.equal(made[0].id, id);
    assert.equal(made[0].first_name, 'Grace');
    const login = await suite.server.client('app').post('/auth/login', { email, password: 'a sturdy long passphrase' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    await page.close();
  });

  it('creates a user with an invitation, whose link sets their password', async () => {
    const page = await createForm();
    const email = uniqueEmail('invitee');
    await page.fill('#create-email', email);
    assert.equal(await page.isChecked('#create-way-invite'), true, 'inviting is the default');
    await page.click('#create-submit');
    const id = await createdUser(page);
    assert.equal((await api.get(`/users/${id}`)).body.data.email, email);

    const mail = await nthMail(suite.server.mail, email, 1);
    assert.match(mail.subject, /account is ready/);
    const client = suite.server.client('app');
    const reset = await client.post('/auth/password/reset', { key: resetKeyFromMail(mail), password: 'chosen by the invitee' });
    assert.equal(reset.status, 401, JSON.stringify(reset.body));
    const login = await suite.server.client('app').post('/auth/login', { email, password: 'chosen by the invitee' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    await page.close();
  });

  it('sends the invitation again from the page of a user without a password, and shows a refusal by the button', async () => {
    const email = uniqueEmail('reinvite');
    const made = await api.post('/users', { email, invite: true });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.meta.invitation, 'sent');
    const id = made.body.data.id;
    await nthMail(suite.server.mail, email, 1);
    const page = await suite.signedInPage();
    await page.goto(`${suite.consoleUrl}#/users/${id}`);
    await page.waitForSelector('#send-invitation');
    // One was sent when the user was made: the button says "again".
    assert.equal(await page.textContent('#send-invitation'), 'Send the invitation again');
    assert.match((await page.textContent('#invitation-intro'))!, new RegExp(email.replace(/[.+]/g, '\\$&')));
    await page.click('#send-invitation');
    await afterReauthentication(page, '#invitation-notice');
    assert.equal(await page.textContent('#invitation-notice'), `Invitation sent to ${email}.`);
    const mail = await nthMail(suite.server.mail, email, 2);
    assert.match(mail.subject, /account is ready/);
    await screenshots(page, 'user-invitation-sent');

    // The address removed meanwhile (the page still shows it): the 409 shows by the button, nothing is sent.
    assert.equal((await api.delete(`/users/${id}/email-addresses/${encodeURIComponent(email)}`)).status, 200);
    await page.click('#send-invitation');
    await afterReauthentication(page, '#invitation-error');
    assert.match((await page.textContent('#invitation-error'))!, /address/i);
    assert.equal(await page.$('#invitation-notice'), null);
    await screenshots(page, 'user-invitation-refused');

    // A user with a password is offered no invitation.
    const withPassword = await api.post('/users', { email: uniqueEmail('haspw'), password: 'a sturdy long passphrase' });
    await page.goto(`${suite.consoleUrl}#/users/${withPassword.body.data.id}`);
    await page.waitForSelector(`#user-page[data-user="${withPassword.body.data.id}"]`);
    assert.equal(await page.$('#send-invitation'), null);
    await page.close();
  });

  it('shows each refusal by its field', async () => {
    const { tag } = await seed(1);
    const page = await createForm();
    // An invitation without an address.
    await page.fill('#create-username', `${tag}_x`);
    await page.click('#create-submit');
    await afterReauthentication(page, '#create-email-error');
    assert.equal(await page.getAttribute('#create-email', 'aria-invalid'), 'true');

    // A taken address and username, a password too short.
    await page.fill('#create-email', `${tag}_0@example.com`);
    await page.fill('#create-username', `${tag}_0`);
    await page.check('#create-way-password');
    await page.fill('#create-password', 'short');
    await page.click('#create-submit');
    await page.waitForSelector('#create-password-error');
    assert.match((await page.textContent('#create-password-error'))!, /short/i);
    assert.equal(await page.getAttribute('#create-password', 'aria-invalid'), 'true');
    await page.fill('#create-password', 'a sturdy long passphrase');
    await page.click('#create-submit');
    await page.waitForSelector('#create-username-error');
    await page.waitForSelector('#create-email-error');
    assert.equal(await page.$('#create-password-error'), null);
    assert.equal(await page.evaluate(() => location.hash), '#/users/new', 'still on the form');
    await screenshots(page, 'users-create-error');
    await page.close();
  });
});
