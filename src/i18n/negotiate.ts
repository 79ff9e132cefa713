import Negotiator from 'negotiator';

/**
 * The language of a request: the best of `languages` its Accept-Language asks for, or
 * the first (LANGUAGE_CODE). Browsers send a handful of distinct headers, so answers are
 * remembered per header and a request pays one map lookup; the map is emptied when it
 * fills, so made-up headers cannot grow it.
 */
export function languageNegotiator(languages: readonly string[]): (acceptLanguage: string | undefined) => string {
  const offered = [...languages];
  const fallback = offered[0]!;
  const remembered = new Map<string, string>();
  return (acceptLanguage) => {
    if (acceptLanguage === undefined || acceptLanguage === '') return fallback;
    let language = remembered.get(acceptLanguage);
    if (language === undefined) {
      // Long headers are someone's experiment, not a browser: answer them without remembering.
      const chosen = new Negotiator({ headers: { 'accept-language': acceptLanguage.slice(0, 512) } }).language(offered) ?? fallback;
      if (acceptLanguage.length > 512) return chosen;
      if (remembered.size >= 1000) remembered.clear();
      remembered.set(acceptLanguage, chosen);
      language = chosen;
    }
    return language;
  };
}
