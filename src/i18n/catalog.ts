import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { normalizeLanguageTag } from '../config/languages.js';
import { languageNegotiator, type LanguageChoice } from './negotiate.js';
import { shapeOf } from './shape.js';
import type { MessageValue } from './message.js';

/**
 * Every string a person reads comes from a catalogue: `locales/<language>/<namespace>.json`,
 * a flat object of ICU MessageFormat messages. A message's id is `<namespace>.<key>`, so
 * `api.json`'s `required` is `api.required`. The catalogues ship in `locales/`; a deployer's
 * LOCALE_DIR, laid out the same way, adds languages and overrides single strings.
 */
export const BUILTIN_LOCALES = fileURLToPath(new URL('../../locales/', import.meta.url));

export interface MessageSource {
  text: string;
  file: string;
}

/** The source text of every message and the file it came from, per language: what the parity test and tooling read. */
export type Messages = Map<string, Map<string, MessageSource>>;

export class CatalogError extends Error {}

/** Reads every `<language>/<namespace>.json` under `dir`. */
export function readCatalogs(dir: string): Messages {
  const messages: Messages = new Map();
  if (!existsSync(dir)) throw new CatalogError(`LOCALE_DIR: ${dir} does not exist`);
  for (const folder of readdirSync(dir).sort()) {
    const path = join(dir, folder);
    if (!statSync(path).isDirectory()) continue;
    const own = new Map<string, MessageSource>();
    messages.set(normalizeLanguageTag(folder), own);
    for (const file of readdirSync(path).filter((name) => name.endsWith('.json')).sort()) {
      const namespace = file.slice(0, -'.json'.length);
      const source = join(path, file);
      for (const [key, text] of Object.entries(readJson(source))) own.set(`${namespace}.${key}`, { text, file: source });
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

const keyOf = (id: string) => id.slice(id.indexOf('.') + 1);

/**
 * A deployer's file is checked against English as the shipped ones are by their test: an
 * unknown key is a typo that would change nothing, and a placeholder English does not
 * pass (or a lost one) would fail or mislead at the first request that needs it.
 */
function checkOverrides(overrides: Messages, english: Map<string, MessageSource>): void {
  for (const [language, own] of overrides) {
    for (const [id, { text, file }] of own) {
      const reference = english.get(id);
      if (reference === undefined) throw new CatalogError(`${file}: "${keyOf(id)}" is not a message (no such key in English)`);
      let mine: string;
      try {
        mine = shapeOf(text, language);
      } catch (error) {
        throw new CatalogError(`${file}: message "${keyOf(id)}" does not compile (${(error as Error).message})`);
      }
      const theirs = shapeOf(reference.text);
      if (mine !== theirs) throw new CatalogError(`${file}: message "${keyOf(id)}" has placeholders [${mine}] where English has [${theirs}]`);
    }
  }
}

export interface Translator {
  /** The languages offered (LANGUAGES), the default (LANGUAGE_CODE) first. */
  readonly languages: readonly string[];
  readonly defaultLanguage: string;
  /** The message `id` in `language`, or in the nearest language that has it (`pt-BR`, `pt`, the default, English). */
  t(language: string, id: string, values?: Record<string, MessageValue>): string;
  has(id: string): boolean;
  /** The language of a request from its Accept-Language header. */
  negotiate(acceptLanguage: string | undefined): string;
  /** The same, with whether the header named it (a choice to keep for the user) or it is the default. */
  choose(acceptLanguage: string | undefined): LanguageChoice;
  /** `language` when it is offered (a stored preference may outlive a change of LANGUAGES), else the default. */
  offered(language: string | null | undefined): string;
  /** Every message of `namespace` as source text, gaps filled along the fallback chain: what a browser formats itself (the console). */
  namespace(language: string, namespace: string): Readonly<Record<string, string>>;
}

/**
 * Compiles every message once, so a broken override stops the start (naming its file
 * and key) instead of failing the first request that needs it.
 */
export function createTranslator(opts: { languages: string[]; defaultLanguage: string; localeDir?: string }): Translator {
  const messages = readCatalogs(BUILTIN_LOCALES);
  const englishSource = messages.get('en') ?? new Map<string, MessageSource>();
  if (opts.localeDir !== undefined) {
    const overrides = readCatalogs(opts.localeDir);
    checkOverrides(overrides, englishSource);
    for (const [language, own] of overrides) messages.set(language, new Map([...(messages.get(language) ?? []), ...own]));
  }
  for (const language of opts.languages) {
    if (!messages.has(language) && !messages.has(language.split('-')[0]!)) {
      throw new CatalogError(`LANGUAGES: no catalogue for "${language}" (add ${language}/api.json and the other namespaces to LOCALE_DIR)`);
    }
  }
  const compiled = new Map<string, Map<string, IntlMessageFormat>>();
  for (const [language, own] of messages) {
    const formats = new Map<string, IntlMessageFormat>();
    for (const [id, { text, file }] of own) {
      try {
        formats.set(id, new IntlMessageFormat(text, language, undefined, { ignoreTag: true }));
      } catch (error) {
        throw new CatalogError(`${file}: message "${keyOf(id)}" does not compile (${(error as Error).message})`);
      }
    }
    compiled.set(language, formats);
  }
  const chainOf = (language: string) => [...new Set([language, language.split('-')[0]!, opts.defaultLanguage, 'en'])];
  const english = compiled.get('en') ?? new Map<string, IntlMessageFormat>();
  const lookups = new Map<string, Map<string, IntlMessageFormat>[]>();
  const lookupOf = (language: string) => {
    let found = lookups.get(language);
    if (found === undefined) {
      found = chainOf(language)
        .map((tag) => compiled.get(tag))
        .filter((m): m is Map<string, IntlMessageFormat> => m !== undefined);
      // Languages nobody offers are not kept, so a stream of made-up tags cannot grow the map.
      if (opts.languages.includes(language)) lookups.set(language, found);
    }
    return found;
  };
  const choose = languageNegotiator(opts.languages);
  const namespaces = new Map<string, Readonly<Record<string, string>>>();
  const offered = (language: string | null | undefined) => (language && opts.languages.includes(language) ? language : opts.defaultLanguage);
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
    negotiate: (acceptLanguage) => choose(acceptLanguage).language,
    choose,
    offered,
    namespace(language, namespace) {
      const tag = offered(language);
      const cacheKey = `${tag} ${namespace}`;
      let found = namespaces.get(cacheKey);
      if (found === undefined) {
        const prefix = `${namespace}.`;
        const entries: Record<string, string> = {};
        for (const source of chainOf(tag).reverse()) {
          for (const [id, { text }] of messages.get(source) ?? []) if (id.startsWith(prefix)) entries[id.slice(prefix.length)] = text;
        }
        namespaces.set(cacheKey, (found = Object.freeze(entries)));
      }
      return found;
    },
  };
}
