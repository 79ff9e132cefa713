import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { PASSWORD, nthMail, uniqueEmail, uniqueUsername } from '../../support/accounts.js';
import { enableTotp, totpAccount, verifiedAccount } from '../../mfa/support.js';
import { AdminClient, newKey } from '../../admin/support.js';
import { setAdmin, userById } from '../../../src/flows/admin/users.js';
import { cliSource } from '../../../src/audit/recorder.js';
import { listAuditEvents } from '../../../src/store/audit-events.js';
import { findUserByEmail } from '../../../src/store/users.js';
import { insertSocialAccount } from '../../../src/store/social-accounts.js';
import { afterReauthentication, screenshots, startConsole, type ConsoleSuite } from './support.js';

// One user's page in Chromium, end to end: an administrator signs in with a
// password and a TOTP code, finds a user, and changes what the page offers:
// active state, username, addresses, phone, password, reset link, the admin
// role, sessions (their own console session marked), second factors, social
// accounts, names and profile fields, and deleting the user behind a typed
// confirmation. Each change is checked on the server afterwards and in the
// audit trail with actor admin_console; refusals show next to their field.
// People without the role, or without a second factor, are turned away.

// Neither field required, so the other cases' signups need neither.
const PROFILE_SCHEMA = {
  type: 'object',
  properties: { company: { type: 'string', maxLength: 40, title: 'Company' }, plan: { type: 'string', enum: ['free', 'team', 'enterprise'] } },
};

const escaped = (text: string) => new RegExp(text.replace(/[.+]/g, '\\$&'));

describeUnlessSkipped('the console user page in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  let page: Page;
  let api: AdminClient;
  before(async () => {
    suite = await startConsole({ ACCOUNT_PROFILE_SCHEMA: JSON.stringify(PROFILE_SCHEMA) });
    api = new AdminClient(suite.adminBase, (await newKey(suite.server, 'write')).secret);
  });
  after(async () => suite?.close());

  const db = () => suite.server.app.deps.db;
  const idOf = async (email: string) => (await findUserByEmail(db(), email))!.id;

  /** The user's app session tokens after `n` logins, each from its own device. */
  async function logins(email: string, n: number, headers: Record<string, string> = {}): Promise<string[]> {
    const tokens: string[] = [];
    for (let i = 0; i < n; i++) {
      const response = await suite.server.client('app').post('/auth/login', { email, password: PASSWORD }, { 'user-agent': `Phone ${i}`, ...headers });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      tokens.push(response.body.meta.session_token);
    }
    return tokens;
  }

  async function sessionStatus(token: string): Promise<number> {
    return (await suite.server.client('app').get('/auth/session', { 'x-session-token': token })).status;
  }

  /** The newest event of `type` about the user: made in the console by the signed-in administrator. */
  async function assertAudited(userId: number, type: string): Promise<Record<string, unknown>> {
    const [event] = await listAuditEvents(db(), { userId, types: [type], limit: 1 });
    assert.ok(event, `no ${type} event`);
    const detail = event.detail as Record<string, unknown>;
    assert.deepEqual([detail.actor, detail.actor_id], ['admin_console', suite.admin.id], `${type}: ${JSON.stringify(detail)}`);
    return detail;
  }

  /** Opens a user's page. */
  async function open(id: number): Promise<void> {
    await page.goto(`${suite.consoleUrl}#/users/${id}`);
    await page.waitForSelector(`#user-page[data-user="${id}"]`);
  }

  /** Confirms the open dialog, then waits for `selector` (confirming the password first when the console asks). */
  async function confirm(selector: string): Promise<void> {
    await page.waitForSelector('#confirm');
    await page.click('#confirm-yes');
    await afterReauthentication(page, selector);
  }

  it('signs an administrator in with a password and a code, finds a user and shows their page', async () => {
    page = await suite.signedInPage();
    await page.click('#nav-users');
    await page.waitForSelector('#search');
    const cookies = await page.context().cookies();
    assert.ok(cookies.find((c) => c.name === 'admin_sessionid')?.httpOnly, 'the console session is in an HttpOnly cookie of its own');

    const target = await verifiedAccount(suite.server, 'app');
    await logins(target.email, 2);
    await page.fill('#search-text', target.email);
    await page.click('#search-submit');
    await page.waitForSelector(`#results a:text("${target.email}")`);
    await page.click(`#results a:text("${target.email}")`);
    await page.waitForSelector('#user-page');
    assert.match((await page.textContent('#user-page h1'))!, escaped(target.email));
    assert.match((await page.textContent('#addresses'))!, /verified/);
    // Two logins plus the signup's session, with their devices; none of them this browser.
    assert.equal(await page.locator('#sessions tr[data-session]').count(), 3);
    assert.equal(await page.locator('#sessions tr[data-current]').count(), 0);
    assert.match((await page.textContent('#sessions'))!, /Phone 1/);
    assert.ok(await page.locator('#events tr[data-event="signup"]').count());
  });

  it('shows a user with everything: addresses, phone, language, sessions, factors, a social account and events', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const id = await idOf(target.email);
    // Logins in French from a phone and a laptop, then a second factor.
    await logins(target.email, 1, { 'accept-language': 'fr-FR', 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148' });
    await logins(target.email, 1, { 'accept-language': 'fr-FR', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' });
    await enableTotp(suite.server, target.client);
    assert.equal((await api.post(`/users/${id}/email-addresses`, { email: uniqueEmail('work'), verified: false })).status, 201);
    assert.equal((await api.put(`/users/${id}/phone`, { phone: '+14155552600', verified: true })).status, 200);
    assert.equal((await api.patch(`/users/${id}`, { username: uniqueUsername('rich'), first_name: 'Grace', last_name: 'Hopper', profile: { company: 'Navy', plan: 'team' } })).status, 200);
    await insertSocialAccount(db(), { userId: id, provider: 'github', uid: '583231', extraData: { login: 'ghopper' }, now: suite.server.clock.now() });
    await insertSocialAccount(db(), { userId: id, provider: 'gone-sso', uid: 'g-77', extraData: {}, now: suite.server.clock.now() });
    await open(id);
    assert.match((await page.textContent('#phone'))!, /\+14155552600/);
    // Providers by the name people know (the provider catalogue's); an id of no known provider as it is.
    assert.match((await page.textContent('#social'))!, /GitHub: ghopper/);
    assert.match((await page.textContent('#social'))!, /gone-sso: g-77/);
    assert.equal(await page.locator('#authenticators tr[data-authenticator="totp"]').count(), 1);
    assert.equal(await page.textContent('#user-language'), 'French');
    // Every time says its zone.
    assert.ok((await page.locator('#user-page time').count()) > 3);
    await screenshots(page, 'user-page');
  });

  it('marks the console session on the administrator\'s own page, and refuses taking the role from the last administrator, saying so', async () => {
    await open(suite.admin.id);
    await page.waitForSelector('#sessions tr[data-current="true"]');
    assert.equal(await page.locator('#sessions tr[data-current="true"]').count(), 1);
    assert.match((await page.textContent('#sessions tr[data-current="true"]'))!, /this browser/);
    await page.locator('#sessions tr[data-current="true"] button').click();
    assert.match((await page.textContent('#confirm-question'))!, /signs you out/);
    await page.click('#confirm-no');

    await page.click('#revoke-admin');
    assert.match((await page.textContent('#confirm-question'))!, escaped(suite.admin.email));
    await confirm('#account-error');
    assert.match((await page.textContent('#account-error'))!, /administrator/i);
    assert.equal((await api.get(`/users/${suite.admin.id}`)).body.data.is_admin, true);
  });

  it('deactivates a user (their sessions end), and reactivates them after the password is confirmed again', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const [token] = await logins(target.email, 1);
    const id = await idOf(target.email);
    await open(id);
    await page.click('#deactivate');
    // The confirmation names the user before anything happens.
    assert.match((await page.textContent('#confirm-question'))!, escaped(target.email));
    assert.equal(await sessionStatus(token!), 200);
    await confirm('#reactivate');
    assert.equal(await page.textContent('#user-state'), 'disabled');
    assert.equal(await sessionStatus(token!), 410);
    assert.equal((await userById(suite.server.app.deps, id))!.isActive, false);

    // Past ACCOUNT_REAUTHENTICATION_TIMEOUT (300 s): a change asks for the password first.
    suite.server.clock.advance(301_000);
    await page.click('#reactivate');
    await page.waitForSelector('#reauthenticate');
    await page.fill('#reauth-password', PASSWORD);
    await page.click('#reauth-submit');
    await page.waitForSelector('#deactivate');
    assert.equal(await page.textContent('#user-state'), 'active');
    const events = await listAuditEvents(db(), { userId: id, types: ['account.disabled', 'account.enabled'], limit: 5 });
    assert.deepEqual(events.map((e) => [e.type, (e.detail as any).actor, (e.detail as any).actor_id]), [
      ['account.enabled', 'admin_console', suite.admin.id],
      ['account.disabled', 'admin_console', suite.admin.id],
    ]);
  });

  it('changes the username inline, a taken one refused next to the field', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const id = await idOf(target.email);
    const taken = uniqueUsername('taken');
    assert.equal((await api.post('/users', { username: taken })).status, 201);
    await open(id);
    await page.fill('#username-input', taken);
    await page.click('#username-save');
    await afterReauthentication(page, '#username-input-error');
    assert.equal(await page.getAttribute('#username-input', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#username-input', 'aria-describedby'), 'username-input-error');
    assert.equal((await api.get(`/users/${id}`)).body.data.username, null);

    const chosen = uniqueUsername('chosen');
    await page.fill('#username-input', chosen);
    await page.press('#username-input', 'Enter');
    await afterReauthentication(page, '#username-notice');
    assert.equal((await api.get(`/users/${id}`)).body.data.username, chosen);
    assert.equal((await assertAudited(id, 'username.changed')).username, chosen);
    assert.equal(await page.inputValue('#username-input'), chosen);
  });

  it('adds an address, marks it verified, makes it primary and removes the old one, each confirmed by name', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const id = await idOf(target.email);
    const added = uniqueEmail('second');
    await open(id);
    // Another user's address is refused next to the input.
    await page.fill('#address-input', suite.admin.email);
    await page.click('#address-add');
    await afterReauthentication(page, '#address-input-error');
    assert.equal(await page.getAttribute('#address-input', 'aria-invalid'), 'true');
    await screenshots(page, 'user-field-error');

    await page.fill('#address-input', added);
    await page.click('#address-add');
    const row = `#addresses li[data-address="${added}"]`;
    await afterReauthentication(page, row);
    assert.match((await page.textContent(row))!, /unverified/);
    assert.deepEqual((await api.get(`/users/${id}/email-addresses`)).body.data.find((a: any) => a.email === added), { email: added, verified: false, primary: false });
    assert.equal((await assertAudited(id, 'email.added')).email, added);

    await page.locator(row).getByRole('button', { name: 'Mark verified' }).click();
    assert.match((await page.textContent('#confirm-question'))!, escaped(added));
    assert.match((await page.textContent('#confirm-question'))!, escaped(target.email));
    await confirm('#addresses-notice');
    await page.waitForFunction((sel) => !/unverified/.test(document.querySelector(sel)!.textContent!), row);
    await assertAudited(id, 'email.verified');

    await page.locator(row).getByRole('button', { name: 'Make primary' }).click();
    assert.match((await page.textContent('#confirm-question'))!, escaped(added));
    await confirm('#addresses-notice');
    await page.waitForFunction((sel) => /primary/.test(document.querySelector(sel)!.textContent!), row);
    assert.equal((await api.get(`/users/${id}`)).body.data.email, added);
    await assertAudited(id, 'email.primary_changed');

    const old = `#addresses li[data-address="${target.email}"]`;
    await page.locator(old).getByRole('button', { name: 'Remove' }).click();
    assert.match((await page.textContent('#confirm-question'))!, escaped(target.email));
    await confirm('#addresses-notice');
    await page.waitForFunction((sel) => !document.querySelector(sel), old);
    assert.deepEqual((await api.get(`/users/${id}/email-addresses`)).body.data.map((a: any) => a.email), [added]);
    assert.equal((await assertAudited(id, 'email.removed')).email, target.email);
  });

  it('sets the phone number, marks it verified, changes and removes it', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const id = await idOf(target.email);
    await open(id);
    await page.fill('#phone-input', 'not a number');
    await page.click('#phone-save');
    await afterReauthentication(page, '#phone-input-error');
    assert.equal(await page.getAttribute('#phone-input', 'aria-invalid'), 'true');

    await page.fill('#phone-input', '+14155552671');
    await page.click('#phone-save');
    await afterReauthentication(page, '#phone-verify');
    assert.deepEqual((await api.get(`/users/${id}/phone`)).body.data, { phone: '+14155552671', verified: false });
    await assertAudited(id, 'phone.changed');

    await page.click('#phone-verify');
    assert.match((await page.textContent('#confirm-question'))!, /\+14155552671/);
    await confirm('#phone-notice');
    await page.waitForSelector('#phone-verify', { state: 'detached' });
    assert.equal((await api.get(`/users/${id}/phone`)).body.data.verified, true);
    await assertAudited(id, 'phone.verified');

    await page.fill('#phone-input', '+14155552672');
    await page.check('#phone-verified');
    await page.click('#phone-save');
    await afterReauthentication(page, '#phone-number:has-text("+14155552672")');
    assert.deepEqual((await api.get(`/users/${id}/phone`)).body.data, { phone: '+14155552672', verified: true });

    await page.click('#phone-remove');
    assert.match((await page.textContent('#confirm-question'))!, /\+14155552672/);
    await confirm('#phone-notice');
    await page.waitForSelector('#phone-number', { state: 'detached' });
    assert.equal((await api.get(`/users/${id}/phone`)).body.data, null);
    await assertAudited(id, 'phone.removed');
  });

  it('sets a password: a refused one shown by the field, then one that keeps their sessions, then one that ends them', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const id = await idOf(target.email);
    const [token] = await logins(target.email, 1);
    await open(id);
    await page.fill('#password-input', 'short');
    await page.click('#password-set');
    await afterReauthentication(page, '#password-input-error');
    assert.match((await page.textContent('#password-input-error'))!, /short/i);
    assert.equal(await page.getAttribute('#password-input', 'aria-describedby'), 'password-input-error');

    await page.fill('#password-input', 'a first admin-chosen phrase');
    await page.check('#password-keep-sessions');
    await page.click('#password-set');
    await afterReauthentication(page, '#password-notice');
    assert.equal(await sessionStatus(token!), 200, 'kept');
    assert.equal((await assertAudited(id, 'password.changed')).sessions, 0);
    assert.equal((await suite.server.client('app').post('/auth/login', { email: target.email, password: 'a first admin-chosen phrase' })).status, 200);

    await page.fill('#password-input', 'a second admin-chosen phrase');
    await page.uncheck('#password-keep-sessions');
    await page.click('#password-set');
    await page.waitForSelector('#password-notice:has-text("ended")');
    assert.equal(await sessionStatus(token!), 410);
    assert.ok(((await assertAudited(id, 'password.changed')).sessions as number) >= 1);
  });

  it('revokes one session, then all of them', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const tokens = await logins(target.email, 2);
    const id = await idOf(target.email);
    await open(id);
    assert.equal(await page.locator('#sessions tr[data-session]').count(), 3);
    await page.locator('#sessions tr[data-session]', { hasText: 'Phone 0' }).locator('button').click();
    await confirm('#sessions-notice');
    await page.waitForFunction(() => document.querySelectorAll('#sessions tr[data-session]').length === 2);
    assert.equal(await sessionStatus(tokens[0]!), 410);
    assert.equal(await sessionStatus(tokens[1]!), 200);
    await page.click('#revoke-all');
    await page.click('#confirm-no');
    assert.equal(await sessionStatus(tokens[1]!), 200, 'cancelled: nothing ended');
    await page.click('#revoke-all');
    await confirm('#sessions-notice');
    await page.waitForFunction(() => document.querySelectorAll('#sessions tr[data-session]').length === 0);
    assert.equal(await sessionStatus(tokens[1]!), 410);
    await assertAudited(id, 'session.revoked');
  });

  it('removes a second factor and sends a reset link, which says an administrator sent it', async () => {
    const target = await totpAccount(suite.server, 'app');
    const id = await idOf(target.email);
    await open(id);
    await page.locator('#authenticators tr[data-authenticator="totp"] button').click();
    await confirm('#authenticators-notice');
    await page.waitForFunction(() => document.querySelectorAll('#authenticators tr[data-authenticator]').length === 0);
    const login = await suite.server.client('app').post('/auth/login', { email: target.email, password: PASSWORD });
    assert.equal(login.status, 200, 'no second factor asked any more');
    await assertAudited(id, 'authenticator.removed');

    await page.click('#send-reset');
    await afterReauthentication(page, '#reset-notice');
    const mail = await nthMail(suite.server.mail, target.email, 2);
    assert.match(mail.text, /password\/reset\/key\//);
    assert.match(mail.text, /An administrator of .+ sent you this link/);
    await assertAudited(id, 'password.reset_requested');
  });

  it('grants the admin role and takes it again, each confirmed', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const id = await idOf(target.email);
    await open(id);
    await page.click('#grant-admin');
    assert.match((await page.textContent('#confirm-question'))!, escaped(target.email));
    await confirm('#revoke-admin');
    assert.equal((await api.get(`/users/${id}`)).body.data.is_admin, true);
    await assertAudited(id, 'admin.granted');
    await page.click('#revoke-admin');
    await confirm('#grant-admin');
    assert.equal((await api.get(`/users/${id}`)).body.data.is_admin, false);
    await assertAudited(id, 'admin.revoked');
  });

  it('disconnects a social account', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const id = await idOf(target.email);
    const account = (await insertSocialAccount(db(), { userId: id, provider: 'github', uid: `gh-${id}`, extraData: { login: `octo${id}` }, now: suite.server.clock.now() }))!;
    await open(id);
    await page.locator(`#social li[data-social="${account.id}"] button`).click();
    assert.match((await page.textContent('#confirm-question'))!, new RegExp(`GitHub account octo${id}`));
    assert.match((await page.textContent('#confirm-question'))!, escaped(target.email));
    await confirm('#social-notice');
    await page.waitForSelector(`#social li[data-social="${account.id}"]`, { state: 'detached' });
    assert.deepEqual((await api.get(`/users/${id}/social-accounts`)).body.data, []);
    await assertAudited(id, 'social.disconnected');
  });

  /** After Save on the profile form: its answer, once the password is confirmed if the console asks for it. */
  const profileAnswer = () => afterReauthentication(page, '#profile-notice, #profile-form .error');

  it('edits a user\'s names and profile fields in one request, and shows a refused field next to it, changing nothing', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const id = await idOf(target.email);
    await open(id);
    // Every input has its label: the field's title, else its name.
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Company').fill('Analytical Engines');
    await page.getByLabel('plan').selectOption('team');
    assert.equal(await page.getAttribute('#profile-field-company', 'maxlength'), '40');

    // The PATCH held back: the button stays disabled until its answer comes.
    const patches: unknown[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/console/api/v1/users/${id}`, async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      patches.push(route.request().postDataJSON());
      await held;
      await route.continue();
    });
    await page.click('#profile-save');
    await page.waitForFunction(() => (document.querySelector('#profile-save') as HTMLButtonElement).disabled);
    release();
    await profileAnswer();
    await page.waitForSelector('#profile-notice');
    await page.unroute(`**/console/api/v1/users/${id}`);
    assert.equal(await page.isDisabled('#profile-save'), false);
    assert.deepEqual(patches.at(-1), { first_name: 'Ada', last_name: 'Lovelace', profile: { company: 'Analytical Engines', plan: 'team' } });
    const saved = (await api.get(`/users/${id}`)).body.data;
    assert.deepEqual([saved.first_name, saved.last_name, saved.profile], ['Ada', 'Lovelace', { company: 'Analytical Engines', plan: 'team' }]);
    await assertAudited(id, 'profile.changed');

    // 41 characters, past the input's maxlength (set as a script would): the server refuses, next to the field.
    await page.$eval('#profile-field-company', (input: HTMLInputElement) => {
      input.value = 'x'.repeat(41);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.getByLabel('Last name').fill('Byron');
    await page.click('#profile-save');
    await profileAnswer();
    await page.waitForSelector('#profile-field-company-error');
    assert.match((await page.textContent('#profile-field-company-error'))!, /40/);
    assert.equal(await page.getAttribute('#profile-field-company', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#profile-field-company', 'aria-describedby'), 'profile-field-company-error');
    assert.equal(await page.locator('#profile-last_name-error').count(), 0);
    const unchanged = (await api.get(`/users/${id}`)).body.data;
    assert.deepEqual([unchanged.last_name, unchanged.profile], ['Lovelace', { company: 'Analytical Engines', plan: 'team' }]);
  });

  it('deletes a user only once their address is typed out, then goes back to the list', async () => {
    const target = await verifiedAccount(suite.server, 'app');
    const id = await idOf(target.email);
    await open(id);
    await page.click('#delete-user');
    await page.waitForSelector('#delete-dialog');
    assert.match((await page.textContent('#delete-dialog'))!, escaped(target.email));
    assert.equal(await page.isDisabled('#delete-confirm'), true);
    await page.fill('#delete-typed', 'someone else');
    assert.equal(await page.isDisabled('#delete-confirm'), true);
    await page.click('#delete-cancel');
    await page.waitForSelector('#delete-dialog', { state: 'detached' });
    assert.equal((await api.get(`/users/${id}`)).status, 200, 'cancelled: nothing deleted');

    await page.click('#delete-user');
    // Focus starts in the dialog's input, so that typing goes there (waited for: the dialog opens after the click returns).
    await page.waitForSelector('#delete-typed:focus');
    await page.keyboard.type(target.email);
    assert.equal(await page.isDisabled('#delete-confirm'), false);
    await screenshots(page, 'user-delete');
    await page.click('#delete-confirm');
    await afterReauthentication(page, '#search');
    assert.equal((await api.get(`/users/${id}`)).status, 404);
    await assertAudited(id, 'account.deleted');
  });

  it('turns away a user without the admin role, and an administrator without a second factor', async () => {
    const plain = await suite.browser.newPage();
    const nobody = await verifiedAccount(suite.server, 'app');
    await suite.signIn(plain, nobody.email);
    await plain.waitForSelector('#problem');
    assert.match((await plain.textContent('#problem'))!, /admin role/);
    await plain.close();

  });

  it('speaks the browser\'s language: a German browser gets the page, its catalogue and the API\'s refusals in German', async () => {
    const context = await suite.browser.newContext({ locale: 'de-DE' });
    const german = await context.newPage();
    const nobody = await verifiedAccount(suite.server, 'app');
    await suite.signIn(german, nobody.email);
    await german.waitForSelector('#problem');
    assert.equal(await german.getAttribute('html', 'lang'), 'de');
    // The site's name comes first, from the brand.
    assert.equal(await german.title(), 'Headless Auth · Admin-Konsole');
    // The admin_required refusal, as the console's own API wrote it for Accept-Language: de-DE.
    assert.match((await german.textContent('#problem'))!, /Administratorrolle/);
    assert.equal(await german.textContent('#problem + button'), 'Abmelden');
    await context.close();
  });

  it('signs out', async () => {
    await page.goto(suite.consoleUrl);
    await page.waitForSelector('#sign-out');
    await page.click('#sign-out');
    await page.waitForSelector('#login');
  });

  it('revoking the console\'s own session, after the sterner confirmation, signs the administrator out', async () => {
    page = await suite.signedInPage();
    await open(suite.admin.id);
    await page.locator('#sessions tr[data-current="true"] button').click();
    assert.equal(await page.textContent('#confirm-yes'), 'Revoke and sign out');
    await confirm('#login');
    await page.waitForSelector('#signed-out');
    const left = (await api.get(`/users/${suite.admin.id}/sessions`)).body.data;
    assert.ok(left.every((s: { current?: boolean }) => s.current === undefined));
    await assertAudited(suite.admin.id, 'session.revoked');
  });
});
