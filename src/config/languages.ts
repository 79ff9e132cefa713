import { ConfigError, readOptional, readString, type Env } from './env.js';

/** LANGUAGE_CODE, LANGUAGES and LOCALE_DIR, under Django's names. */
export interface LanguageSettings {
  /** The language of a request that asks for none we offer, and of catalogue gaps. */
  languageCode: string;
  /** The languages offered, as BCP 47 tags (`pt-BR`), LANGUAGE_CODE first. */
  languages: string[];
  /** A folder of `<language>/<namespace>.json` catalogues that add languages or override strings. */
  localeDir: string | undefined;
}

/** Django writes `pt-br` in LANGUAGES and `pt_BR` for folders; both become `pt-BR`. */
export function normalizeLanguageTag(tag: string): string {
  const [language, ...rest] = tag.trim().replace(/_/g, '-').split('-');
  const tail = rest.map((part) => (part.length === 2 ? part.toUpperCase() : part.length === 4 ? part[0]!.toUpperCase() + part.slice(1).toLowerCase() : part.toLowerCase()));
  return [language!.toLowerCase(), ...tail].join('-');
}

const TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * LANGUAGES is either a comma-separated list of codes or, as Django writes it, a JSON list
 * of `[code, name]` pairs (the names are for people; only the codes matter here).
 */
export function readLanguageSettings(env: Env): LanguageSettings {
  const languageCode = normalizeLanguageTag(readString(env, 'LANGUAGE_CODE', 'en'));
  const raw = readOptional(env, 'LANGUAGES');
  const listed = raw === undefined ? ['en', 'de', 'fr', 'es'] : parseLanguages(raw);
  const languages = [languageCode, ...listed.map(normalizeLanguageTag).filter((tag) => tag !== languageCode)];
  for (const tag of languages) {
    if (!TAG.test(tag)) throw new ConfigError(`LANGUAGES: "${tag}" is not a language code such as "de" or "pt-BR"`);
  }
  if (raw !== undefined && !listed.map(normalizeLanguageTag).includes(languageCode)) {
    throw new ConfigError(`LANGUAGE_CODE "${languageCode}" is not among LANGUAGES (${listed.join(', ')})`);
  }
  return { languageCode, languages, localeDir: readOptional(env, 'LOCALE_DIR') };
}

function parseLanguages(raw: string): string[] {
  const text = raw.trim();
  if (!text.startsWith('[')) return text.split(',').map((s) => s.trim()).filter(Boolean);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError('LANGUAGES: not valid JSON; give codes separated by commas, or a JSON list of [code, name] pairs');
  }
  if (!Array.isArray(parsed)) throw new ConfigError('LANGUAGES: expected a list');
  return parsed.map((entry) => {
    const code = Array.isArray(entry) ? entry[0] : entry;
    if (typeof code !== 'string') throw new ConfigError('LANGUAGES: each entry is a code or a [code, name] pair');
    return code;
  });
}
