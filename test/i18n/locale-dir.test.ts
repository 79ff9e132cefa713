import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/server.js';
import { readyClient } from '../support/accounts.js';
import { loadConfig, ConfigError } from '../../src/config/config.js';
import { buildApp } from '../../src/app.js';
import { createTranslator } from '../../src/i18n/catalog.js';

// A deployer's LOCALE_DIR adds a language or overrides single strings; a
// broken file there, a language offered with no catalogue, or a
// LANGUAGE_CODE outside LANGUAGES stops the start with a message that
// names what to fix. And how a request's language is chosen.

function localeDir(files: Record<string, Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'locales-'));
  for (const [path, messages] of Object.entries(files)) {
    mkdirSync(join(dir, path.split('/')[0]!), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(messages));
  }
  return dir;
}

const made: string[] = [];
const dirOf = (files: Record<string, Record<string, string>>) => {
  const dir = localeDir(files);
  made.push(dir);
  return dir;
};
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('LOCALE_DIR on a running server', () => {
  let server: TestServer;
  before(async () => {
    const dir = dirOf({
      'nl/api.json': { not_found: 'Niet gevonden.' },
      'en/api.json': { not_found: 'Nothing lives here.' },
    });
    server = await startTestServer('sqlite', { LANGUAGES: '[["en", "English"], ["nl", "Nederlands"]]', LOCALE_DIR: dir });
  });
  after(async () => {
    await server?.close();
  });

  it('adds a language, and its gaps read as English', async () => {
    const client = await readyClient(server, 'browser');
    const dutch = await client.get('/no/such/route', { 'accept-language': 'nl-BE' });
    assert.equal(dutch.body.errors[0].message, 'Niet gevonden.');
    assert.equal(dutch.headers.get('content-language'), 'nl');
    const gap = await client.post('/auth/login', { email: 'a@example.com', password: 'wrong password' }, { 'accept-language': 'nl' });
    assert.equal(gap.body.errors[0].message, 'The email address and/or password you specified are not correct.');
  });

  it('overrides a single English string and leaves the others', async () => {
    const client = await readyClient(server, 'browser');
    assert.equal((await client.get('/no/such/route')).body.errors[0].message, 'Nothing lives here.');
    // German is not among LANGUAGES here: English answers.
    const german = await client.get('/no/such/route', { 'accept-language': 'de' });
    assert.equal(german.headers.get('content-language'), 'en');
    assert.equal(german.body.errors[0].message, 'Nothing lives here.');
  });
});

describe('settings and catalogues that stop the start', () => {
  const start = (env: Record<string, string>) => buildApp(loadConfig({ SECRET_KEY: TEST_SECRET, DATABASE_URL: 'sqlite::memory:', ...env }), { logger: false });

  it('a message that does not compile, naming the file and key', async () => {
    const dir = dirOf({ 'de/api.json': { max_email_addresses: 'Nicht mehr als {max, plural, one {# Adresse}' } });
    await assert.rejects(start({ LOCALE_DIR: dir }), (error: Error) => error.message.includes(join(dir, 'de/api.json')) && error.message.includes('max_email_addresses'));
  });

  it('placeholders other than English\'s, or a key English does not have', async () => {
    const renamed = dirOf({ 'fr/api.json': { 'max_email_addresses.max': 'Pas plus de {count} adresses.' } });
    await assert.rejects(start({ LOCALE_DIR: renamed }), (error: Error) => error.message.includes(join(renamed, 'fr/api.json')) && /placeholders/.test(error.message));
    const typo = dirOf({ 'en/api.json': { not_fuond: 'Nothing here.' } });
    await assert.rejects(start({ LOCALE_DIR: typo }), (error: Error) => error.message.includes('not_fuond') && error.message.includes(join(typo, 'en/api.json')));
  });

  it('a file that is not JSON, and a LOCALE_DIR that does not exist', async () => {
    const dir = dirOf({});
    mkdirSync(join(dir, 'es'));
    writeFileSync(join(dir, 'es/api.json'), '{"required": ');
    await assert.rejects(start({ LOCALE_DIR: dir }), (error: Error) => error.message.includes(join(dir, 'es/api.json')));
    await assert.rejects(start({ LOCALE_DIR: join(dir, 'missing') }), /LOCALE_DIR/);
  });

  it('LANGUAGE_CODE not among LANGUAGES, and a language offered with no catalogue', async () => {
    assert.throws(() => loadConfig({ SECRET_KEY: TEST_SECRET, LANGUAGE_CODE: 'fr', LANGUAGES: 'en,de' }), (error: Error) => error instanceof ConfigError && /LANGUAGE_CODE/.test(error.message));
    assert.throws(() => loadConfig({ SECRET_KEY: TEST_SECRET, LANGUAGES: 'en,not a tag' }), ConfigError);
    await assert.rejects(start({ LANGUAGES: 'en,it' }), /"it"/);
  });
});

describe('choosing a request\'s language', () => {
  const i18n = createTranslator({ languages: ['en', 'de', 'fr', 'es', 'pt-BR'], defaultLanguage: 'en', localeDir: dirOf({ 'pt_BR/api.json': { not_found: 'Não encontrado.' } }) });

  it('takes the best offered match of Accept-Language, regions and q-values included', () => {
    assert.equal(i18n.negotiate('de-AT,de;q=0.9'), 'de');
    assert.equal(i18n.negotiate('it, es;q=0.5, fr;q=0.7'), 'fr');
    assert.equal(i18n.negotiate('pt'), 'pt-BR');
    assert.equal(i18n.negotiate(undefined), 'en');
    assert.equal(i18n.negotiate('ja'), 'en');
    assert.equal(i18n.negotiate(';;;,,=q'), 'en');
  });

  it('a wildcard, the fallback or no header name no language to keep', () => {
    assert.deepEqual(i18n.choose('*'), { language: 'en', named: false });
    assert.deepEqual(i18n.choose('it, *;q=0.5'), { language: 'en', named: false });
    assert.deepEqual(i18n.choose(undefined), { language: 'en', named: false });
    assert.deepEqual(i18n.choose('es-MX, *'), { language: 'es', named: true });
  });

  it('falls back message by message: pt-BR to pt to LANGUAGE_CODE to English', () => {
    // Django's folder name pt_BR is the tag pt-BR; what it lacks is English.
    assert.equal(i18n.t('pt-BR', 'api.not_found'), 'Não encontrado.');
    assert.equal(i18n.t('pt-BR', 'api.required'), 'This field is required.');
    assert.equal(i18n.t('de', 'api.max_length.at_most', { max: 1 }), 'Dieser Wert darf höchstens 1 Zeichen lang sein.');
    assert.equal(i18n.t('en', 'api.max_length.at_most', { max: 1 }), 'Ensure this value has at most 1 character.');
    assert.equal(i18n.t('en', 'api.max_length.at_most', { max: 150 }), 'Ensure this value has at most 150 characters.');
  });
});
