import { ConfigError } from './env.js';

// ACCOUNT_SIGNUP_FIELDS as the reference writes it: `email*,username*,password1*`,
// a trailing `*` marking a required field. `password2` is a form-only
// confirmation field that headless clients never send; it is accepted and ignored.
// first_name and last_name are the fields of Django's user model that a
// project's signup form commonly adds.
export type SignupField = 'email' | 'username' | 'password' | 'phone' | 'first_name' | 'last_name';
export type SignupFields = Partial<Record<SignupField, { required: boolean }>>;

const NAMES: Record<string, SignupField | null> = {
  email: 'email',
  username: 'username',
  password1: 'password',
  password2: null,
  phone: 'phone',
  first_name: 'first_name',
  last_name: 'last_name',
};

export function parseSignupFields(raw: string, name = 'ACCOUNT_SIGNUP_FIELDS'): SignupFields {
  const fields: SignupFields = {};
  for (const item of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const required = item.endsWith('*');
    const key = required ? item.slice(0, -1) : item;
    if (!(key in NAMES)) {
      throw new ConfigError(`${name}: unknown field "${key}"; allowed: ${Object.keys(NAMES).join(', ')} (suffix * = required)`);
    }
    const field = NAMES[key];
    if (field) fields[field] = { required };
  }
  if (!fields.email && !fields.username && !fields.phone) {
    throw new ConfigError(`${name}: needs at least one of email, username, phone`);
  }
  return fields;
}
