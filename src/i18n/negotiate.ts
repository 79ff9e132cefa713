import Negotiator from 'negotiator';

/** The language of a request, and whether its Accept-Language named it (not `*`, not the fallback). */
export interface LanguageChoice {
  readonly language: string;
  readonly named: boolean;
}

const LONGEST = 512;

/**
 * The language of a request: the best of `languages` its Accept-Language asks for, or
 * the first (LANGUAGE_CODE). `*` stands for no preference (Node's fetch sends it by
 * default): it picks the first, as no header does, and names nothing to keep for the
 * user. Browsers send a handful of distinct headers, so choices are remembered per
 * header and a request pays one map lookup; the map is emptied when it fills, so
 * made-up headers cannot grow it.
 */
export function languageNegotiator(languages: readonly string[]): (acceptLanguage: string | undefined) => LanguageChoice {
  const offered = [...languages];
  const fallback: LanguageChoice = Object.freeze({ language: offered[0]!, named: false });
  const remembered = new Map<string, LanguageChoice>();
  const choose = (acceptLanguage: string): LanguageChoice => {
    const named = acceptLanguage
      .slice(0, LONGEST)
      .split(',')
      .filter((part) => part.split(';')[0]!.trim() !== '*')
      .join(',');
    const language = named === '' ? undefined : new Negotiator({ headers: { 'accept-language': named } }).language(offered);
    return language === undefined ? fallback : Object.freeze({ language, named: true });
  };
  return (acceptLanguage) => {
    if (acceptLanguage === undefined || acceptLanguage === '') return fallback;
    let choice = remembered.get(acceptLanguage);
    if (choice === undefined) {
      choice = choose(acceptLanguage);
      // Long headers are someone's experiment, not a browser: answered without remembering.
      if (acceptLanguage.length > LONGEST) return choice;
      if (remembered.size >= 1000) remembered.clear();
      remembered.set(acceptLanguage, choice);
    }
    return choice;
  };
}
