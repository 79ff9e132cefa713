import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUILTIN_LOCALES } from '../../src/i18n/catalog.js';
import { shapeOf } from '../../src/i18n/shape.js';

// Every shipped catalogue against English, namespace by namespace: the same
// keys, and in each message the same placeholders (names, kinds, select
// cases), so that no language lacks a text, keeps a stale one, or asks the
// code for a value it does not pass. Namespaces that appear later (mail,
// sms, pages) are checked the moment their files exist.

const languages = readdirSync(BUILTIN_LOCALES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
const read = (language: string, file: string): Record<string, string> => JSON.parse(readFileSync(join(BUILTIN_LOCALES, language, file), 'utf8'));
const namespaces = readdirSync(join(BUILTIN_LOCALES, 'en')).filter((f) => f.endsWith('.json'));

describe('catalogues', () => {
  it('ship English and at least German, French and Spanish', () => {
    for (const language of ['en', 'de', 'fr', 'es']) assert.ok(languages.includes(language), language);
    assert.ok(namespaces.includes('api.json') && namespaces.includes('console.json'));
  });

  for (const language of languages.filter((l) => l !== 'en')) {
    it(`${language}: every namespace English has, and no other`, () => {
      const own = readdirSync(join(BUILTIN_LOCALES, language)).filter((f) => f.endsWith('.json'));
      assert.deepEqual(own.sort(), [...namespaces].sort());
    });
    for (const file of namespaces) {
      it(`${language}/${file}: the keys of English, each with English's placeholders`, () => {
        const english = read('en', file);
        const theirs = read(language, file);
        assert.deepEqual(Object.keys(theirs).filter((k) => !(k in english)), [], 'keys English does not have');
        assert.deepEqual(Object.keys(english).filter((k) => !(k in theirs)), [], 'keys missing');
        for (const [key, text] of Object.entries(english)) {
          assert.equal(shapeOf(theirs[key]!, language), shapeOf(text), `${language}/${file} "${key}"`);
        }
      });
    }
  }

  it('the shape of a message names its arguments, their kinds and the cases of a select', () => {
    assert.equal(shapeOf('{n, plural, one {# code} other {# codes}} for {name}'), 'n:plural, name:argument');
    assert.equal(shapeOf('{kind, select, email {mail} other {other}}'), 'kind:select(email|other)');
    // A plural's cases are the language's own; a lost argument is a different shape.
    assert.equal(shapeOf('{n, plural, one {# Zeichen} other {# Zeichen}}', 'de'), shapeOf('{n, plural, one {#} other {#}}'));
    assert.notEqual(shapeOf('Hello'), shapeOf('Hello {name}'));
  });

  it('every error code of the wire has its message in English', () => {
    const english = read('en', 'api.json');
    const src = resolve(import.meta.dirname, '../../src');
    const union = (file: string, name: string) => {
      const text = readFileSync(join(src, file), 'utf8');
      const start = text.indexOf(`export type ${name} =`);
      return [...text.slice(start, text.indexOf(';', start)).matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!);
    };
    const codes = [...union('flows/outcome.ts', 'ErrorCode'), ...union('http/messages.ts', 'HttpErrorCode')];
    assert.ok(codes.length > 60);
    assert.deepEqual(codes.filter((code) => !(code in english)), []);
  });

  it('every message key the code names exists in English', () => {
    const english = read('en', 'api.json');
    const src = resolve(import.meta.dirname, '../../src');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    const named = files(src).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bmsg\('([^']+)'/g)].map((m) => m[1]!));
    assert.ok(named.length > 20);
    assert.deepEqual([...new Set(named)].filter((key) => !(key in english)), []);
  });
});
