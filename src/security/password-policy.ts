import { isCommonPassword } from './common-passwords.js';
import { msg, type MessageRef } from '../i18n/message.js';

// The codes are Django's password validators' codes, which django-allauth passes
// through to its clients unchanged.
export type PasswordProblemCode =
  | 'password_too_similar'
  | 'password_too_short'
  | 'password_too_common'
  | 'password_entirely_numeric';

export interface PasswordProblem {
  code: PasswordProblemCode;
  message: MessageRef;
}

export interface PasswordPolicy {
  minLength: number;
  // Values the password must not resemble: username, email, its local part, names.
  userAttributes?: string[];
  // The site's own name (SITE_NAME): the first word an attacker tries there.
  siteName?: string;
}

// Django's UserAttributeSimilarityValidator default.
const MAX_SIMILARITY = 0.7;

// Returns every problem found, in the order of Django's default AUTH_PASSWORD_VALIDATORS
// (similarity, length, common, numeric); an empty array means the password is fine.
export function checkPassword(password: string, policy: PasswordPolicy): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (isTooSimilar(password, policy.userAttributes ?? [])) {
    problems.push({
      code: 'password_too_similar',
      message: msg('password_too_similar'),
    });
  }
  // Django counts code points, not UTF-16 units.
  if ([...password].length < policy.minLength) {
    problems.push({ code: 'password_too_short', message: msg('password_too_short.min', { min: policy.minLength }) });
  }
  if (isCommonPassword(password)) {
    problems.push({ code: 'password_too_common', message: msg('password_too_common') });
  } else if (policy.siteName && isTooSimilar(password, [policy.siteName, policy.siteName.replace(/\s+/g, '')])) {
    problems.push({ code: 'password_too_common', message: msg('password_too_common.site_name') });
  }
  // Python's str.isdigit(), which Django uses, also accepts non-ASCII decimal digits.
  if (/^\p{Nd}+$/u.test(password)) {
    problems.push({ code: 'password_entirely_numeric', message: msg('password_entirely_numeric') });
  }
  return problems;
}

// Django's rule: compare the lower-cased password with each lower-cased attribute and
// with its parts split on non-word characters; too similar when difflib's
// SequenceMatcher.quick_ratio() reaches 0.7. quick_ratio is reproduced exactly below.
// One addition of ours: for an email address its local part is compared too, so
// "alicesmith1" is caught for "alice.smith@example.com" whether or not the caller
// passes the local part separately.
function isTooSimilar(password: string, attributes: readonly string[]): boolean {
  const pwd = password.toLowerCase();
  for (const attribute of attributes) {
    const value = attribute.toLowerCase();
    if (value === '') continue;
    const candidates = new Set([value, ...value.split(/[^\p{L}\p{N}_]+/u)]);
    const at = value.lastIndexOf('@');
    if (at > 0) candidates.add(value.slice(0, at));
    for (const candidate of candidates) {
      if (candidate === '' || isFarTooShort(pwd, candidate)) continue;
      if (quickRatio(pwd, candidate) >= MAX_SIMILARITY) return true;
    }
  }
  return false;
}

// Django skips a part when the password is at least ten times its length and the part
// is too short to reach the threshold anyway (its exceeds_maximum_length_ratio).
function isFarTooShort(password: string, part: string): boolean {
  const passwordLength = [...password].length;
  const partLength = [...part].length;
  return passwordLength >= 10 * partLength && partLength < (MAX_SIMILARITY / 2) * passwordLength;
}

// difflib.SequenceMatcher(a, b).quick_ratio(): 2*M/T, where M is the number of
// characters the two strings share counted with multiplicity (order ignored) and
// T the sum of their lengths. An upper bound of the LCS-based ratio(), and what
// Django actually compares against the threshold.
export function quickRatio(a: string, b: string): number {
  const aChars = [...a];
  const bChars = [...b];
  const total = aChars.length + bChars.length;
  if (total === 0) return 1;
  const available = new Map<string, number>();
  for (const char of bChars) available.set(char, (available.get(char) ?? 0) + 1);
  let matches = 0;
  for (const char of aChars) {
    const left = available.get(char) ?? 0;
    if (left > 0) {
      matches++;
      available.set(char, left - 1);
    }
  }
  return (2 * matches) / total;
}
