import type { ErrorObject } from 'ajv';
import type { Config } from '../../config/config.js';
import { profileValidator } from '../../config/profile.js';
import type { ProfileValue, ProfileValues } from '../../domain/user.js';
import type { FieldError } from '../outcome.js';
import { msg } from '../../i18n/message.js';

// The checks of the user's names and custom profile fields, shared by
// signup, the user's own profile endpoint and the admin API. Names follow
// Django's auth_user (at most 150 characters, blank allowed, surrounding
// space stripped as a form field does); custom fields follow
// ACCOUNT_PROFILE_SCHEMA, their errors under the codes Django's validators
// use for the same rule, with `param` naming the field.

/** Django's auth_user.first_name and last_name: max_length=150. */
const NAME_MAX_LENGTH = 150;

export const NAME_FIELDS = ['first_name', 'last_name'] as const;
type NameField = (typeof NAME_FIELDS)[number];

/** What a valid change sets: the names given, and the whole new set of profile values when any field was given. */
export interface ProfileChange {
  firstName?: string;
  lastName?: string;
  profile?: ProfileValues;
}

export type ProfileCheck = { ok: true; change: ProfileChange } | { ok: false; errors: FieldError[] };

/** How the body is read: at signup or as a change of an existing profile. */
export interface CheckMode {
  /** Signup: only the names ACCOUNT_SIGNUP_FIELDS lists are read, and other keys are the form's own. */
  signup: boolean;
  /** The names that may not be left blank. */
  requiredNames: ReadonlySet<NameField>;
}

/** The names ACCOUNT_SIGNUP_FIELDS marks required (`first_name*`): they cannot be cleared later either. */
export function requiredNames(config: Config): Set<NameField> {
  return new Set(NAME_FIELDS.filter((name) => config.account.signupFields[name]?.required));
}

function checkName(field: NameField, value: unknown, required: boolean): { value: string } | { error: FieldError } {
  if (value !== null && typeof value !== 'string') return { error: { code: 'invalid', param: field } };
  const name = (value ?? '').trim();
  if (name.length > NAME_MAX_LENGTH) {
    return { error: { code: 'max_length', param: field, message: msg('max_length.at_most_has', { max: NAME_MAX_LENGTH, length: name.length }) } };
  }
  if (required && name === '') return { error: { code: 'required', param: field } };
  return { value: name };
}

/** An ajv error as the envelope's: the code of Django's validator for the same rule. */
function fieldError(error: ErrorObject): FieldError {
  const field = error.instancePath.slice(1);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { code: 'required', param: String(params.missingProperty) };
    case 'enum':
      return { code: 'invalid_choice', param: field };
    case 'maxLength':
      return { code: 'max_length', param: field, message: msg('max_length.at_most', { max: Number(params.limit) }) };
    case 'minLength':
      return { code: 'min_length', param: field, message: msg('min_length.at_least', { min: Number(params.limit) }) };
    case 'maximum':
      return { code: 'max_value', param: field, message: msg('max_value.at_most', { max: Number(params.limit) }) };
    case 'minimum':
      return { code: 'min_value', param: field, message: msg('min_value.at_least', { min: Number(params.limit) }) };
    default:
      // type and pattern: Django's field and RegexValidator say "invalid".
      return { code: 'invalid', param: field };
  }
}

/**
 * Checks the names and profile fields in `body` against the settings and,
 * for a change, the user's current values. A field given as null or "" is
 * cleared (refused when required); a change leaves fields it does not name
 * as they are, and is only held to the schema for the fields it names, so
 * that an account made without a required one (by an administrator, a
 * provider, an import) can still change the others.
 */
export function checkProfile(config: Config, body: Record<string, unknown>, current: ProfileValues | null, mode: CheckMode): ProfileCheck {
  const errors: FieldError[] = [];
  const change: ProfileChange = {};
  for (const field of NAME_FIELDS) {
    if (mode.signup && !config.account.signupFields[field]) continue;
    const given = body[field];
    if (given === undefined && !(mode.signup && mode.requiredNames.has(field))) continue;
    const checked = checkName(field, given ?? null, mode.requiredNames.has(field));
    if ('error' in checked) errors.push(checked.error);
    else change[field === 'first_name' ? 'firstName' : 'lastName'] = checked.value;
  }

  const { fields } = config.profile;
  const known = new Set(fields.map((f) => f.name));
  if (!mode.signup) {
    // A change names fields only: any other key (an account field, a typo) is refused, whatever its value.
    for (const key of Object.keys(body)) {
      if (!known.has(key) && !(NAME_FIELDS as readonly string[]).includes(key)) errors.push({ code: 'invalid', param: key, message: msg('invalid.unknown_field') });
    }
  }
  const given = Object.entries(body).filter(([key]) => known.has(key));
  if (mode.signup ? fields.length > 0 : given.length > 0) {
    // Values of fields the schema no longer declares go with the first change.
    const next: Record<string, unknown> = Object.fromEntries(Object.entries(current ?? {}).filter(([key]) => known.has(key)));
    for (const [key, value] of given) {
      if (value === null || value === '') delete next[key];
      else next[key] = value;
    }
    const validate = profileValidator(config.profile);
    if (!validate(next)) {
      const named = new Set(given.map(([key]) => key));
      const seen = new Set<string>();
      for (const error of (validate.errors ?? []).map(fieldError)) {
        // A change answers for what it names; a field already missing (or
        // stored under an older schema) is the account's history.
        if (!mode.signup && !named.has(error.param!)) continue;
        if (seen.has(error.param!)) continue;
        seen.add(error.param!);
        errors.push(error);
      }
    }
    change.profile = next as Record<string, ProfileValue>;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, change };
}
