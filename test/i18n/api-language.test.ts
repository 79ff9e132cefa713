import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { nthMail, PASSWORD, readyClient, signedUp, uniqueEmail } from '../support/accounts.js';
import { AdminClient, adminUrl, newKey } from '../admin/support.js';
import { findUserByEmail } from '../../src/store/users.js';
import { languageOf } from '../../src/flows/language.js';

// The envelope's messages follow the request's Accept-Language (among
// LANGUAGES, default en,de,fr,es); its codes, params and statuses never do.
// Only answers that carry text say their language (Content-Language, Vary).
// A user's language is kept from their signup, logins and change requests,
// for mails sent outside their own requests.

const GERMAN = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };
const FRENCH = { 'accept-language': 'fr-CH, fr;q=0.9' };
const SPANISH = { 'accept-language': 'es' };

const wire = (body: any) => body.errors.map((e: any) => ({ code: e.code, param: e.param }));

describeEachDatabase('languages of the API', { ADMIN_PORT: '0', ACCOUNT_EMAIL_VERIFICATION: 'optional', ACCOUNT_MAX_EMAIL_ADDRESSES: '2' }, ({ server }) => {
  // The admin listener starts once per server, at the first test that needs it.
  let admin: Promise<string> | undefined;
  const adminBase = () => (admin ??= adminUrl(server()));
  it('a German request gets German messages with the codes, params and status of an English one', async () => {
    const client = await readyClient(server(), 'browser');
    const body = { email: 'nobody@example.com', password: 'wrong password' };
    const english = await client.post('/auth/login', body);
    const german = await client.post('/auth/login', body, GERMAN);
    assert.equal(german.status, english.status);
    assert.deepEqual(wire(german.body), wire(english.body));
    assert.equal(english.body.errors[0].message, 'The email address and/or password you specified are not correct.');
    assert.equal(german.body.errors[0].message, 'Die E-Mail-Adresse und/oder das Passwort sind nicht korrekt.');
    assert.equal(german.headers.get('content-language'), 'de');
    assert.match(german.headers.get('vary') ?? '', /Accept-Language/);
    assert.equal(english.headers.get('content-language'), 'en');
  });

  it('schema errors, the http layer\'s own refusals and several errors at once are written in the language too', async () => {
    const client = await readyClient(server(), 'browser');
    const missing = await client.post('/auth/login', { password: PASSWORD }, FRENCH);
    assert.equal(missing.status, 400);
    assert.deepEqual(wire(missing.body), wire((await client.post('/auth/login', { password: PASSWORD })).body));
    assert.ok(missing.body.errors.every((e: any) => typeof e.message === 'string' && e.message.length > 0));
    const notFound = await client.get('/no/such/route', SPANISH);
    assert.equal(notFound.status, 404);
    assert.equal(notFound.body.errors[0].code, 'not_found');
    assert.equal(notFound.body.errors[0].message, 'No encontrado.');
    assert.equal(notFound.headers.get('content-language'), 'es');
    // A CSRF refusal comes before any route runs.
    const csrf = await server().client('browser').post('/auth/login', { email: uniqueEmail(), password: PASSWORD }, GERMAN);
    assert.equal(csrf.status, 403);
    assert.equal(csrf.body.errors[0].code, 'csrf_failed');
    assert.match(csrf.body.errors[0].message, /^CSRF-Token fehlt/);
  });

  it('a message with a number is a plural in each language (max_email_addresses)', async () => {
    const client = await readyClient(server(), 'browser');
    await signedUp(client);
    assert.equal((await client.post('/account/email', { email: uniqueEmail() })).status, 200);
    const german = await client.post('/account/email', { email: uniqueEmail() }, GERMAN);
    const english = await client.post('/account/email', { email: uniqueEmail() });
    assert.deepEqual(wire(german.body), [{ code: 'max_email_addresses', param: 'email' }]);
    assert.deepEqual(wire(english.body), wire(german.body));
    assert.equal(german.body.errors[0].message, 'Sie können nicht mehr als 2 E-Mail-Adressen hinzufügen.');
    assert.equal(english.body.errors[0].message, 'You cannot add more than 2 email addresses.');
  });

  it('answers without text neither negotiate nor say a language: the session check above all', async () => {
    const client = await readyClient(server(), 'browser');
    const anonymous = await client.get('/auth/session', GERMAN);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('content-language'), null);
    assert.doesNotMatch(anonymous.headers.get('vary') ?? '', /Accept-Language/);
    await signedUp(client);
    const signedIn = await client.get('/auth/session', GERMAN);
    assert.equal(signedIn.status, 200);
    assert.equal(signedIn.headers.get('content-language'), null);
  });

  it('the admin API answers in the caller\'s language, codes unchanged', async () => {
    const admin = new AdminClient(await adminBase(), 'not-a-key');
    const german = await admin.request('GET', '/admin/v1/users', undefined, GERMAN);
    const english = await admin.request('GET', '/admin/v1/users');
    assert.equal(german.status, 401);
    assert.deepEqual(wire(german.body), wire(english.body));
    assert.equal(german.body.errors[0].code, 'invalid_api_key');
    assert.match(german.body.errors[0].message, /Admin-API-Schlüssel/);
    assert.equal(german.headers.get('content-language'), 'de');
  });

  it('keeps the user\'s language from signup, login and change requests, never from a read', async () => {
    const deps = server().app.deps;
    const email = uniqueEmail('lang');
    const language = async () => (await findUserByEmail(deps.db, email))!.language;
    const browser = await readyClient(server(), 'browser');
    assert.equal((await browser.post('/auth/signup', { email, password: PASSWORD }, FRENCH)).status, 200);
    assert.equal(await language(), 'fr');
    // A change request of the signed-in user in another language.
    assert.equal((await browser.post('/account/email', { email: uniqueEmail() }, SPANISH)).status, 200);
    assert.equal(await language(), 'es');
    // The session check never writes.
    assert.equal((await browser.get('/auth/session', GERMAN)).status, 200);
    assert.equal(await language(), 'es');
    // An app that names no language leaves it; a login in German sets it.
    const app = server().client('app');
    assert.equal((await app.post('/auth/login', { email, password: PASSWORD })).status, 200);
    assert.equal(await language(), 'es');
    assert.equal((await server().client('app').post('/auth/login', { email, password: PASSWORD }, GERMAN)).status, 200);
    assert.equal(await language(), 'de');
    const user = (await findUserByEmail(deps.db, email))!;
    assert.equal(languageOf(deps, user), 'de');
    // A stored language no longer offered, or none, reads as LANGUAGE_CODE.
    assert.equal(languageOf(deps, { ...user, language: 'it' }), 'en');
    assert.equal(languageOf(deps, { ...user, language: null }), 'en');

    // A mail sent outside the user's own requests (an administrator's reset link) is in their stored language.
    const writer = new AdminClient(await adminBase(), (await newKey(server(), 'write')).secret);
    assert.equal((await writer.post(`/users/${user.id}/password-reset`)).status, 200);
    const reset = await nthMail(server().mail, email, 2);
    assert.match(reset.subject, /Passwort zurücksetzen/);
  });
});
