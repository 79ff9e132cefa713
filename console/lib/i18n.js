// The console's words and formats, in the browser's language: the server
// picks the language from Accept-Language (as for the API's messages) and
// sends its catalogue (locales/<language>/console*.json, ICU messages).
import { IntlMessageFormat } from '../vendor/intl-messageformat.js';

const catalogue = await fetch('/console/messages', { headers: { accept: 'application/json' }, credentials: 'same-origin' }).then((r) => r.json());
export const language = catalogue.data.language;
const messages = catalogue.data.messages;
document.documentElement.lang = language;

const formats = new Map();
/** The message `key` of the catalogue, with its values. */
export function t(key, values) {
  let format = formats.get(key);
  if (format === undefined) formats.set(key, (format = new IntlMessageFormat(messages[key] ?? key, language, undefined, { ignoreTag: true })));
  return format.format(values);
}

/**
 * The readable name of a raw value the API speaks (an authenticator type, an
 * audit event type, a password hasher, ...): `names.<kind>.<raw>` in the
 * catalogue, else the raw value itself, so that a new type still shows.
 */
export function nameOf(kind, raw) {
  const key = `names.${kind}.${raw}`;
  return key in messages ? t(key) : String(raw);
}

const stamp = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
/** A time as people read it, with its zone (the browser's); '–' for none. */
export const when = (iso) => (iso ? stamp.format(new Date(iso)) : '–');
/** The browser's time zone, as the page says which zone its times are in. */
export const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const count = new Intl.NumberFormat(language);
export const number = (n) => count.format(n);
