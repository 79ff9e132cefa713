import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { normalizeLanguageTag } from '../config/languages.js';
import { languageNegotiator } from './negotiate.js';

/**
 * Every string a person reads comes from a catalogue: `locales/<language>/<namespace>.json`,
 * a flat object of ICU MessageFormat messages. A message's id is `<namespace>.<key>`, so
 * `api.json`'s `required` is `api.required`. The catalogues ship in `locales/`; a deployer's
 * LOCALE_DIR, laid out the same way, adds languages and overrides single strings.
 */
export const BUILTIN_LOCALES = fileURLToPath(new URL('../../locales/', import.meta.url));

/** The source text of every message and the file it came from, per language: what the parity test and tooling read. */
export type Messages = Map<string, Map<string, { text: string; file: string }>>;

export class CatalogError extends Error {}

/** Reads every `<language>/<namespace>.json` under `dir`; later folders override earlier ones per key. */
export function readCatalogs(dirs: string[]): Messages {
  const messages: Messages = new Map();
  for (const dir of dirs) {
    if (!existsSync(dir)) throw new CatalogError(`LOCALE_DIR: ${dir} does not exist`);
    for (const folder of readdirSync(dir)) {
      const path = join(dir, folder);
      if (!statSync(path).isDirectory()) continue;
      const language = normalizeLanguageTag(folder);
      const own = messages.get(language) ?? new Map<string, { text: string; file: string }>();
      messages.set(language, own);
      for (const file of readdirSync(path).filter((name) => name.endsWith('.json')).sort()) {
        const namespace = file.slice(0, -'.json'.length);
        const source = join(path, file);
        for (const [key, text] of Object.entries(readJson(source))) own.set(`${namespace}.${key}`, { text, file: source });
      }
    }
  }
  return messages;
}

function readJson(file: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CatalogError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CatalogError(`${file}: expected an object of messages`);
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new CatalogError(`${file}: "${key}" is not a string`);
  }
  return parsed as Record<string, string>;
}

export interface Translator {
  /** The languages offered (LANGUAGES), the default (LANGUAGE_CODE) first. */
  readonly languages: readonly string[];
  readonly defaultLanguage: string;
  /** The message `id` in `language`, or in the nearest language that has it (`pt-BR`, `pt`, the default, English). */
  t(language: string, id: string, values?: Record<string, unknown>): string;
  has(id: string): boolean;
  /** The language of a request from its Accept-Language header. */
  negotiate(acceptLanguage: string | undefined): string;
}

/**
 * Compiles every message once, so a broken override stops the start (naming its file
 * and id) instead of failing the first request that needs it.
 */
export function createTranslator(opts: { languages: string[]; defaultLanguage: string; localeDir?: string }): Translator {
  const messages = readCatalogs(opts.localeDir === undefined ? [BUILTIN_LOCALES] : [BUILTIN_LOCALES, opts.localeDir]);
  const compiled = new Map<string, Map<string, IntlMessageFormat>>();
  for (const [language, own] of messages) {
    const formats = new Map<string, IntlMessageFormat>();
    for (const [id, { text, file }] of own) {
      try {
        formats.set(id, new IntlMessageFormat(text, language));
      } catch (error) {
        throw new CatalogError(`${file}: message "${id.slice(id.indexOf('.') + 1)}" does not compile (${(error as Error).message})`);
      }
    }
    compiled.set(language, formats);
  }
  const english = compiled.get('en') ?? new Map<string, IntlMessageFormat>();
  const lookups = new Map<string, Map<string, IntlMessageFormat>[]>();
  const lookupOf = (language: string) => {
    let found = lookups.get(language);
    if (found === undefined) {
      const tags = [...new Set([language, language.split('-')[0]!, opts.defaultLanguage, 'en'])];
      found = tags.map((tag) => compiled.get(tag)).filter((m): m is Map<string, IntlMessageFormat> => m !== undefined);
      // Languages nobody offers are not kept, so a stream of made-up tags cannot grow the map.
      if (opts.languages.includes(language)) lookups.set(language, found);
    }
    return found;
  };
  return {
    languages: opts.languages,
    defaultLanguage: opts.defaultLanguage,
    t(language, id, values) {
      for (const formats of lookupOf(language)) {
        const format = formats.get(id);
        if (format !== undefined) return String(format.format(values));
      }
      throw new Error(`no message ${id} in any catalogue`);
    },
    has: (id) => english.has(id),
    negotiate: languageNegotiator(opts.languages),
  };
}
