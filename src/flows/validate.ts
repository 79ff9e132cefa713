import { domainToASCII } from 'node:url';
import type { Config } from '../config/config.js';
import type { FieldError } from './outcome.js';
import { msg } from '../i18n/message.js';
import { checkPassword } from '../security/password-policy.js';
import { normalizePassword } from '../security/passwords.js';

// Field rules beyond what the JSON schema can say (types and presence of
// always-required fields are checked by the http layer's schemas).

// The WHATWG HTML form rule: what browsers accept in <input type=email>.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// Django's default username rule: letters, digits and @/./+/-/_.
const USERNAME = /^[\p{L}\p{N}_.@+-]+$/u;

export function normalizeEmail(email: string): string {
  return email.trim();
}

export function emailError(email: string, param = 'email'): FieldError | null {
  if (email.length > 254) return { code: 'max_length', param, message: msg('max_length.at_most', { max: 254 }) };
  return EMAIL.test(withAsciiDomain(email)) ? null : { code: 'invalid', param, message: msg('invalid.email') };
}

/**
 * A provider's address, as the reference takes it (valid_email_or_none with
 * Django's EmailValidator, whose domain allowlist admits `localhost`:
 * Lichess's documented `bobby@localhost`). The API's own fields keep the
 * browser's rule above, which wants a dot in the domain.
 */
export function providerEmailError(email: string): FieldError | null {
  const at = email.lastIndexOf('@');
  if (at > 0 && email.slice(at + 1) === 'localhost') return emailError(`${email.slice(0, at)}@localhost.localdomain`);
  return emailError(email);
}

// Django's EmailValidator checks an internationalised domain in its punycode
// form, and allauth keeps the address as typed ("zoe@bücher.example"), so
// such addresses sign up, log in and arrive by import.
function withAsciiDomain(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1);
  if (at < 0 || /^[\x00-\x7f]*$/.test(domain)) return email;
  // '' for a domain that has no punycode form: left as it is, the rule refuses it.
  const ascii = domainToASCII(domain);
  return ascii === '' ? email : `${email.slice(0, at + 1)}${ascii}`;
}

export function usernameError(config: Config, username: string): FieldError | null {
  const { usernameMinLength, usernameBlacklist } = config.account;
  if (username.length > 150) return { code: 'max_length', param: 'username', message: msg('max_length.at_most', { max: 150 }) };
  if (username.length < usernameMinLength) {
    return { code: 'invalid', param: 'username', message: msg('invalid.username_too_short', { min: usernameMinLength }) };
  }
  if (!USERNAME.test(username)) {
    return { code: 'invalid', param: 'username', message: msg('invalid.username_characters') };
  }
  if (usernameBlacklist.includes(username.toLowerCase())) return { code: 'username_blacklisted', param: 'username' };
  return null;
}

/** The rules for a new password, checked on the form it is stored in (see normalizePassword). */
export function passwordErrors(config: Config, password: string, param: string, userAttributes: Array<string | null | undefined>): FieldError[] {
  // Only spaces is no password at all, as a form that strips its fields sees it.
  if (password.trim() === '') return [{ code: 'required', param }];
  return checkPassword(normalizePassword(password), {
    minLength: config.account.passwordMinLength,
    userAttributes: userAttributes.filter((a): a is string => !!a),
    siteName: config.siteName,
  }).map((p) => ({ code: p.code, param, message: p.message }));
}
