import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { PASSWORD, nthMail } from '../support/accounts.js';
import { nextPeriod, totpAccount, totpAt, verifiedAccount } from '../mfa/support.js';
import { AdminClient, adminUrl, newKey } from '../admin/support.js';
import { setAdmin, userById } from '../../src/flows/admin/users.js';
import { cliSource } from '../../src/audit/recorder.js';
import { listAuditEvents } from '../../src/store/audit-events.js';
import { findUserByEmail } from '../../src/store/users.js';

// The admin console in Chromium, end to end: an administrator signs in with
// a password and a TOTP code, finds a user, deactivates and reactivates them
// (the second time after confirming the password again), revokes their
// sessions, removes their second factor and sends them a reset link, edits
// their names and profile fields (a refused one shown beside it); people
// without the role, or without a second factor, are turned away.
const skip = browserSkipReason();
// Neither field required, so the other cases' signups need neither.
const PROFILE_SCHEMA = {
  type: 'object',
  properties: { company: { type: 'string', maxLength: 40, title: 'Company' }, plan: { type: 'string', enum: ['free', 'team', 'enterprise'] } },
};

describeUnlessSkipped('admin console in Chromium', skip, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let console_: string;
  let adminBase: string;
  let admin: { email: string; secret: string; id: number };

  before(async () => {
    server = await startTestServer('sqlite', {
      ADMIN_PORT: '0',
      ACCOUNT_EMAIL_VERIFICATION: 'optional',
      ACCOUNT_LOGIN_METHODS: 'email,username',
      ACCOUNT_PROFILE_SCHEMA: JSON.stringify(PROFILE_SCHEMA),
    });
    adminBase = await adminUrl(server);
    console_ = `${adminBase}/console`;
    const account = await totpAccount(server, 'app');
    const user = (await findUserByEmail(server.app.deps.db, account.email))!;
    await setAdmin(server.app.deps, cliSource(Date.now()), user, true);
    admin = { email: account.email, secret: account.secret, id: user.id };
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signIn(p: Page, email: string, secret?: string): Promise<void> {
    await p.goto(console_);
    await p.waitForSelector('#login');
    await p.fill('#login', email);
    await p.fill('#password', PASSWORD);
    await p.click('#sign-in-submit');
    if (secret === undefined) return;
    await p.waitForSelector('#code');
    nextPeriod(server);
    await p.fill('#code', totpAt(server, secret));
    await p.click('#code-submit');
  }

  /** The user's app session tokens after `n` logins. */
  async function logins(email: string, n: number): Promise<string[]> {
    const tokens: string[] = [];
    for (let i = 0; i < n; i++) {
      const response = await server.client('app').post('/auth/login', { email, password: PASSWORD }, { 'user-agent': `Phone ${i}` });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      tokens.push(response.body.meta.session_token);
    }
    return tokens;
  }

  async function sessionStatus(token: string): Promise<number> {
    return (await server.client('app').get('/auth/session', { 'x-session-token': token })).status;
  }

  it('signs an administrator in with a password and a code, finds a user and shows their page', async () => {
    page = await browser.newPage();
    await signIn(page, admin.email, admin.secret);
    await page.waitForSelector('#search');
    const cookies = await page.context().cookies();
    assert.ok(cookies.find((c) => c.name === 'admin_sessionid')?.httpOnly, 'the console session is in an HttpOnly cookie of its own');

    const target = await verifiedAccount(server, 'app');
    await logins(target.email, 2);
    await page.fill('#search-text', target.email);
    await page.click('#search-submit');
    await page.waitForSelector(`#results a:text("${target.email}")`);
    await page.click(`#results a:text("${target.email}")`);
    await page.waitForSelector('#user-page');
    assert.match((await page.textContent('#user-page h1'))!, new RegExp(target.email.replace(/[.+]/g, '\\$&')));
    assert.match((await page.textContent('#addresses'))!, /verified/);
    // Two logins plus the signup's session, with their devices.
    assert.equal(await page.locator('#sessions tr[data-session]').count(), 3);
    assert.match((await page.textContent('#sessions'))!, /Phone 1/);
    assert.ok(await page.locator('#events tr[data-event="signup"]').count());
  });

  it('deactivates a user (their sessions end), and reactivates them after the password is confirmed again', async () => {
    const target = await verifiedAccount(server, 'app');
    const [token] = await logins(target.email, 1);
    const id = (await findUserByEmail(server.app.deps.db, target.email))!.id;
    await page.goto(`${console_}#/users/${id}`);
    await page.waitForSelector('#deactivate');
    await page.click('#deactivate');
    // The confirmation names the user before anything happens.
    assert.match((await page.textContent('#confirm-question'))!, new RegExp(target.email.replace(/[.+]/g, '\\$&')));
    assert.equal(await sessionStatus(token!), 200);
    await page.click('#confirm-yes');
    await page.waitForSelector('#reactivate');
    assert.equal(await page.textContent('#user-state'), 'disabled');
    assert.equal(await sessionStatus(token!), 410);
    assert.equal((await userById(server.app.deps, id))!.isActive, false);

    // Past ACCOUNT_REAUTHENTICATION_TIMEOUT (300 s): a change asks for the password first.
    server.clock.advance(301_000);
    await page.click('#reactivate');
    await page.waitForSelector('#reauthenticate');
    await page.fill('#reauth-password', PASSWORD);
    await page.click('#reauth-submit');
    await page.waitForSelector('#deactivate');
    assert.equal(await page.textContent('#user-state'), 'active');
    const events = await listAuditEvents(server.app.deps.db, { userId: id, types: ['account.disabled', 'account.enabled'], limit: 5 });
    assert.deepEqual(events.map((e) => [e.type, (e.detail as any).actor, (e.detail as any).actor_id]), [
      ['account.enabled', 'admin_console', admin.id],
      ['account.disabled', 'admin_console', admin.id],
    ]);
  });

  it('revokes one session, then all of them', async () => {
    const target = await verifiedAccount(server, 'app');
    const tokens = await logins(target.email, 2);
    const id = (await findUserByEmail(server.app.deps.db, target.email))!.id;
    await page.goto(`${console_}#/users/${id}`);
    await page.waitForSelector('#sessions tr[data-session]');
    assert.equal(await page.locator('#sessions tr[data-session]').count(), 3);
    await page.locator('#sessions tr[data-session]', { hasText: 'Phone 0' }).locator('button').click();
    await page.click('#confirm-yes');
    await page.waitForFunction(() => document.querySelectorAll('#sessions tr[data-session]').length === 2);
    assert.equal(await sessionStatus(tokens[0]!), 410);
    assert.equal(await sessionStatus(tokens[1]!), 200);
    await page.click('#revoke-all');
    await page.click('#confirm-no');
    assert.equal(await sessionStatus(tokens[1]!), 200, 'cancelled: nothing ended');
    await page.click('#revoke-all');
    await page.click('#confirm-yes');
    await page.waitForFunction(() => document.querySelectorAll('#sessions tr[data-session]').length === 0);
    assert.equal(await sessionStatus(tokens[1]!), 410);
  });

  it('removes a second factor and sends a reset link', async () => {
    const target = await totpAccount(server, 'app');
    const id = (await findUserByEmail(server.app.deps.db, target.email))!.id;
    await page.goto(`${console_}#/users/${id}`);
    await page.waitForSelector('#authenticators tr[data-authenticator="totp"]');
    await page.locator('#authenticators tr[data-authenticator="totp"] button').click();
    await page.click('#confirm-yes');
    await page.waitForFunction(() => document.querySelectorAll('#authenticators tr[data-authenticator]').length === 0);
    const login = await server.client('app').post('/auth/login', { email: target.email, password: PASSWORD });
    assert.equal(login.status, 200, 'no second factor asked any more');

    await page.click('#send-reset');
    await page.waitForSelector('#notice');
    const mail = await nthMail(server.mail, target.email, 2);
    assert.match(mail.text, /password\/reset\/key\//);
  });

  /** After Save on the profile form: its answer, once the password is confirmed if the console asks for it. */
  async function profileAnswer(): Promise<void> {
    const shown = await page.waitForSelector('#profile-notice, #profile-form .error, #reauthenticate');
    if ((await shown.getAttribute('id')) !== 'reauthenticate') return;
    await page.fill('#reauth-password', PASSWORD);
    await page.click('#reauth-submit');
    await page.waitForSelector('#profile-notice, #profile-form .error');
  }

  it('edits a user\'s names and profile fields in one request, and shows a refused field next to it, changing nothing', async () => {
    const target = await verifiedAccount(server, 'app');
    const id = (await findUserByEmail(server.app.deps.db, target.email))!.id;
    const api = new AdminClient(adminBase, (await newKey(server, 'read')).secret);
    await page.goto(`${console_}#/users/${id}`);
    await page.waitForSelector('#profile-form');
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
    const after = (await api.get(`/users/${id}`)).body.data;
    assert.deepEqual([after.first_name, after.last_name, after.profile], ['Ada', 'Lovelace', { company: 'Analytical Engines', plan: 'team' }]);

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

  it('turns away a user without the admin role, and an administrator without a second factor', async () => {
    const plain = await browser.newPage();
    const nobody = await verifiedAccount(server, 'app');
    await signIn(plain, nobody.email);
    await plain.waitForSelector('#problem');
    assert.match((await plain.textContent('#problem'))!, /admin role/);
    await plain.close();

    const noMfa = await browser.newPage();
    const weak = await verifiedAccount(server, 'app');
    await setAdmin(server.app.deps, cliSource(Date.now()), (await findUserByEmail(server.app.deps.db, weak.email))!, true);
    await signIn(noMfa, weak.email);
    await noMfa.waitForSelector('#problem');
    assert.match((await noMfa.textContent('#problem'))!, /second factor/);
    await noMfa.close();
  });

  it('speaks the browser\'s language: a German browser gets the page, its catalogue and the API\'s refusals in German', async () => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const german = await context.newPage();
    const nobody = await verifiedAccount(server, 'app');
    await signIn(german, nobody.email);
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
    await page.goto(console_);
    await page.waitForSelector('#sign-out');
    await page.click('#sign-out');
    await page.waitForSelector('#login');
  });
});
