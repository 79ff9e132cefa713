import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/app.js';
import { createTranslator } from '../../src/i18n/catalog.js';
import { loadTemplates } from '../../src/templates/load.js';
import { pagesOf } from '../../src/idp/pages.js';
import { notificationsOn } from '../../src/messaging/notices.js';
import { keyFromMail, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/server.js';
import { enableTotp, verifiedAccount } from '../mfa/support.js';

// Templates end to end: a deployer's TEMPLATES_DIR overrides defaults (and, in a
// language's folder, for that language only), a German browser gets German mail,
// security notices follow ACCOUNT_EMAIL_NOTIFICATIONS, and a bad override stops the start.

function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'templates-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const overrides = folderWith({
  'account/email/unknown_account_subject.txt': 'Nobody here by {{ email }}',
  'account/email/unknown_account_message.txt': '{% extends "account/email/base_message.txt" %}{% block content %}Our own words for {{ current_site.name }}.{% endblock %}',
  'de/account/email/unknown_account_subject.txt': 'Niemand hier',
});

describe('templates over SMTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { TEMPLATES_DIR: overrides, ACCOUNT_EMAIL_NOTIFICATIONS: 'true', SITE_NAME: 'Acme' });
  });
  after(async () => {
    await server.close();
    rmSync(overrides, { recursive: true, force: true });
  });

  it('sends an override in place of the default, and a language folder overrides it again', async () => {
    const english = uniqueEmail('nobody');
    await server.client('app').post('/auth/password/request', { email: english });
    const mail = await server.mail.waitForMail({ to: english });
    assert.equal(mail.subject, `[Acme] Nobody here by ${english}`);
    assert.match(mail.text, /^Our own words for Acme\.$/m);
    // The HTML part was not overridden: the default, in the same language.
    assert.match(mail.html, /no account with this address/);

    const german = uniqueEmail('niemand');
    await server.client('app').post('/auth/password/request', { email: german }, { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    const deMail = await server.mail.waitForMail({ to: german });
    assert.equal(deMail.subject, '[Acme] Niemand hier');
    assert.match(deMail.html, /<html lang="de">/);
    assert.match(deMail.html, /gibt es kein Konto/);
  });

  it('writes a mail in the language the browser asks for', async () => {
    const email = uniqueEmail('anna');
    const client = await readyClient(server, 'browser');
    const signup = await client.post('/auth/signup', { email, password: 'ein langes geheimes Passwort' }, { 'accept-language': 'de' });
    assert.equal(signup.status, 200);
    const mail = await server.mail.waitForMail({ to: email });
    assert.equal(mail.subject, '[Acme] Bestätigen Sie Ihre E-Mail-Adresse');
    assert.match(mail.text, /hoffentlich Sie/);
    assert.match(mail.html, /E-Mail-Adresse bestätigen<\/a>/);
    // The wire stays the same in every language.
    assert.equal(signup.body.data.user.email, email);
  });

  it('mails a security notice with ACCOUNT_EMAIL_NOTIFICATIONS on, in the language of the request', async () => {
    const account = await verifiedAccount(server, 'app');
    await enableTotp(server, account.client);
    const notice = await server.mail.waitForMail({ to: account.email, subjectIncludes: 'authenticator app was set up' });
    assert.match(notice.text, /^IP address: 127\.0\.0\.1$/m);
    assert.match(notice.text, /^Time: .+ UTC$/m);

    const removed = await account.client.delete('/account/authenticators/totp', undefined, { 'accept-language': 'fr' });
    assert.equal(removed.status, 200);
    const french = await server.mail.waitForMail({ to: account.email, subjectIncludes: 'application d’authentification a été supprimée' });
    assert.match(french.html, /<html lang="fr">/);
  });

  it('tells the old address when the primary one changes, and the primary one when an address is removed', async () => {
    const { client, email } = await verifiedAccount(server, 'browser');
    const next = uniqueEmail('next');
    assert.equal((await client.post('/account/email', { email: next })).status, 200);
    assert.equal((await client.post('/auth/email/verify', { key: keyFromMail(await nthMail(server.mail, next, 1)) })).status, 200);
    assert.equal((await client.patch('/account/email', { email: next, primary: true })).status, 200);
    const changed = await server.mail.waitForMail({ to: email, subjectIncludes: 'email address was changed' });
    assert.match(changed.text, new RegExp(`from ${email} to ${next}`));
    assert.equal((await client.delete('/account/email', { email })).status, 200);
    const removed = await server.mail.waitForMail({ to: next, subjectIncludes: 'address was removed' });
    assert.match(removed.text, new RegExp(`The address ${email} was removed`));
  });
});

test('ACCOUNT_EMAIL_NOTIFICATIONS: unset keeps the password notices only, false sends none, true all', () => {
  const unset = loadConfig({});
  const off = loadConfig({ ACCOUNT_EMAIL_NOTIFICATIONS: 'false' });
  const on = loadConfig({ ACCOUNT_EMAIL_NOTIFICATIONS: 'true' });
  assert.equal(notificationsOn(unset, 'account/email/password_changed'), true);
  assert.equal(notificationsOn(unset, 'account/email/password_reset'), true);
  assert.equal(notificationsOn(unset, 'account/email/password_set'), true);
  assert.equal(notificationsOn(unset, 'mfa/email/totp_activated'), false);
  assert.equal(notificationsOn(off, 'account/email/password_changed'), false);
  assert.equal(notificationsOn(on, 'socialaccount/email/account_connected'), true);
});

/** The start with this one override: what buildApp rejects with. */
async function startFailure(name: string, text: string): Promise<{ dir: string; message: string }> {
  const dir = folderWith({ [name]: text });
  const config = loadConfig({ SECRET_KEY: TEST_SECRET, DATABASE_URL: 'sqlite::memory:', TEMPLATES_DIR: dir });
  try {
    const app = await buildApp(config, { logger: false });
    await app.close();
    return { dir, message: '' };
  } catch (error) {
    return { dir, message: (error as Error).message };
  }
}

test('an override that does not compile stops the start, naming its file and line', async () => {
  const { dir, message } = await startFailure('account/email/login_code_message.txt', 'Your code:\n{{ code }}\n{% if code %}\nno end\n');
  rmSync(dir, { recursive: true, force: true });
  assert.ok(message.includes(join(dir, 'account/email/login_code_message.txt')), message);
  assert.match(message, /login_code_message\.txt:4: .*end of file/);
});

test('an override that prints an unknown variable stops the start, naming its file and line', async () => {
  const { dir, message } = await startFailure('account/email/login_code_subject.txt', 'Your code\n{{ cod }}\n');
  rmSync(dir, { recursive: true, force: true });
  assert.ok(message.includes(`${join(dir, 'account/email/login_code_subject.txt')}:2:`), message);
  assert.match(message, /undefined/);
});

test('server pages follow Accept-Language and allow the brand stylesheet and logo by origin', () => {
  const config = loadConfig({ BRANDING_STYLESHEET_URL: 'https://cdn.example.com/brand.css', BRANDING_LOGO_URL: 'https://img.example.com/logo.svg' });
  const i18n = createTranslator({ languages: config.languages.languages, defaultLanguage: 'en' });
  const pages = pagesOf({ config, templates: loadTemplates(config, i18n).templates, i18n });
  const html = pages.error('es-ES,es;q=0.9', 'expired');
  assert.match(html, /<html lang="es">/);
  assert.match(html, /El inicio de sesión ha caducado/);
  assert.match(html, /<link rel="stylesheet" href="https:\/\/cdn\.example\.com\/brand\.css">/);
  assert.match(pages.csp, /style-src 'sha256-[^']+' https:\/\/cdn\.example\.com;/);
  // The stylesheet's own images and fonts come from its origin too.
  assert.match(pages.csp, /img-src https:\/\/img\.example\.com https:\/\/cdn\.example\.com;/);
  assert.match(pages.csp, /font-src https:\/\/cdn\.example\.com;/);
  assert.match(pages.error(undefined, 'expired'), /<html lang="en">/);
});
