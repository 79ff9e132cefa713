import { onFirstUse } from '../../kernel/on-first-use.js';
import type { FieldError } from '../outcome.js';
import { msg } from '../../i18n/message.js';

// Phone numbers arrive in E.164 (a leading +, country code first); spaces,
// dashes and dots people type are tolerated. The full metadata ("max")
// checks the digits against each country's numbering plan, not only length.
// Its tables are loaded on the first number checked.
const numberingPlans = onFirstUse<typeof import('libphonenumber-js/max')>('libphonenumber-js/max');

/** The number in E.164, or an `invalid` error for `param`. */
export function parsePhone(raw: string, param = 'phone'): { phone: string } | { error: FieldError } {
  const invalid = { error: { code: 'invalid' as const, param, message: msg('invalid.phone') } };
  const text = raw.trim();
  if (text.length > 32 || !/^\+[0-9 ().-]+$/.test(text)) return invalid;
  const parsed = numberingPlans().parsePhoneNumberFromString(text, { extract: false });
  // An extension cannot receive a text message.
  if (!parsed || !parsed.isValid() || parsed.ext) return invalid;
  return { phone: parsed.number };
}
