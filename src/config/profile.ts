import { Ajv, type ValidateFunction } from 'ajv';
import type { ProfileValue } from '../domain/user.js';
import { ConfigError, readJsonDocument, readOptional, type Env } from './env.js';

// A deployment's own profile fields (ACCOUNT_PROFILE_SCHEMA: a JSON Schema
// object of flat, typed properties), which of the user's fields the wire's
// user object shows (HEADLESS_USER_FIELDS), and the ID token claims the
// fields become (IDP_OIDC_PROFILE_CLAIMS). All three are beyond the
// reference, whose user model is a Django class a project edits in code.

export type ProfileFieldType = 'string' | 'integer' | 'number' | 'boolean';

export interface ProfileField {
  name: string;
  type: ProfileFieldType;
  required: boolean;
  enum?: readonly ProfileValue[];
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  title?: string;
  description?: string;
}

export interface ProfileClaim {
  field: string;
  claim: string;
  /** The scope that grants the claim: `profile`, or a scope of the deployment's own. */
  scope: string;
}

export interface ProfileSettings {
  /** ACCOUNT_PROFILE_SCHEMA's properties, in their order. */
  fields: ProfileField[];
  /** HEADLESS_USER_FIELDS: first_name, last_name and profile fields the wire's user object carries. */
  userFields: string[];
  /** IDP_OIDC_PROFILE_CLAIMS. */
  claims: ProfileClaim[];
}

/**
 * Names a profile field may not take: the account's own fields (which have
 * rules and flows of their own: the user may not change the admin role, the
 * active state, verification or identifiers through the profile), the signup
 * form's, and the wire user object's. Fields share the signup body and the
 * user object with them, so a clash would let one reach the other.
 */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([
  'id', 'pk', 'sub', 'display', 'email', 'emails', 'email_verified', 'email_addresses', 'verified', 'username', 'phone', 'phone_number', 'phone_verified',
  'password', 'password1', 'password2', 'has_usable_password', 'password_hash', 'password_hasher', 'password_current',
  'first_name', 'last_name', 'name', 'is_active', 'active', 'is_admin', 'admin', 'is_staff', 'is_superuser', 'groups', 'user_permissions', 'role', 'roles',
  'date_joined', 'last_login', 'created_at', 'last_login_at', 'profile', 'fields', 'key', 'code', 'token', 'session_token', 'provider', 'process', 'callback_url',
]);

/** Claims the provider fills itself (or that name the token): a profile field may not overwrite them. */
const RESERVED_CLAIMS = new Set([
  'iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'jti', 'auth_time', 'nonce', 'acr', 'amr', 'azp', 'sid', 'at_hash', 'c_hash', 's_hash', 'cnf', 'scope', 'client_id',
  'email', 'email_verified', 'phone_number', 'phone_number_verified', 'name', 'given_name', 'family_name', 'preferred_username',
]);

const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const KEYWORDS = new Set(['type', 'enum', 'maxLength', 'minLength', 'pattern', 'minimum', 'maximum', 'title', 'description']);
const TYPES: readonly ProfileFieldType[] = ['string', 'integer', 'number', 'boolean'];
const TOP_KEYWORDS = new Set(['$schema', 'title', 'description', 'type', 'properties', 'required', 'additionalProperties']);

const validators = new WeakMap<ProfileSettings, ValidateFunction>();

/** The compiled schema of the fields (compiled once, when the settings are read): additional properties refused. */
export function profileValidator(settings: ProfileSettings): ValidateFunction {
  let validator = validators.get(settings);
  // A copy of the settings (a test's spread) compiles its own, once.
  if (!validator) validators.set(settings, (validator = compile(settings.fields)));
  return validator;
}

function compile(fields: ProfileField[]): ValidateFunction {
  // strict: a schema ajv would read differently from the checks below fails at once.
  return new Ajv({ allErrors: true, strict: true }).compile(jsonSchemaOf(fields));
}

function fail(name: string, message: string): never {
  throw new ConfigError(`${name}: ${message}`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

function valueOfType(type: ProfileFieldType, value: unknown): boolean {
  if (type === 'string') return typeof value === 'string';
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === 'number' && Number.isFinite(value);
}

function readField(name: string, field: string, spec: unknown, required: boolean): ProfileField {
  const at = `${name}: properties.${field}`;
  if (!FIELD_NAME.test(field)) fail(name, `"${field}" is not a field name (lower-case letters, digits and _, starting with a letter, at most 64)`);
  if (RESERVED_FIELD_NAMES.has(field)) fail(name, `"${field}" is reserved (an account field with rules of its own, or a name the API uses); choose another name`);
  if (!isObject(spec)) fail(at, 'expected an object such as {"type": "string", "maxLength": 100}');
  for (const keyword of Object.keys(spec)) {
    if (!KEYWORDS.has(keyword)) fail(at, `unsupported keyword "${keyword}"; allowed: ${[...KEYWORDS].join(', ')}`);
  }
  const type = spec.type as ProfileFieldType;
  if (!TYPES.includes(type)) fail(at, `type must be one of ${TYPES.join(', ')}`);
  const out: ProfileField = { name: field, type, required };
  if (spec.enum !== undefined) {
    if (!Array.isArray(spec.enum) || spec.enum.length === 0 || !spec.enum.every((v) => valueOfType(type, v))) fail(at, `enum must be a non-empty list of ${type} values`);
    out.enum = spec.enum as ProfileValue[];
  }
  for (const keyword of ['maxLength', 'minLength', 'pattern'] as const) {
    if (spec[keyword] !== undefined && type !== 'string') fail(at, `${keyword} applies to strings only`);
  }
  for (const keyword of ['minimum', 'maximum'] as const) {
    if (spec[keyword] === undefined) continue;
    if (type !== 'integer' && type !== 'number') fail(at, `${keyword} applies to numbers only`);
    if (typeof spec[keyword] !== 'number') fail(at, `${keyword} must be a number`);
    out[keyword] = spec[keyword];
  }
  for (const keyword of ['maxLength', 'minLength'] as const) {
    if (spec[keyword] === undefined) continue;
    if (!isCount(spec[keyword])) fail(at, `${keyword} must be a whole number`);
    out[keyword] = spec[keyword];
  }
  if (spec.pattern !== undefined) {
    if (typeof spec.pattern !== 'string') fail(at, 'pattern must be a regular expression in a string');
    try {
      new RegExp(spec.pattern, 'u');
    } catch (error) {
      fail(at, `pattern: ${(error as Error).message}`);
    }
    out.pattern = spec.pattern;
  }
  for (const keyword of ['title', 'description'] as const) {
    if (spec[keyword] === undefined) continue;
    if (typeof spec[keyword] !== 'string') fail(at, `${keyword} must be a string`);
    out[keyword] = spec[keyword];
  }
  return out;
}

function readFields(env: Env): ProfileField[] {
  const name = 'ACCOUNT_PROFILE_SCHEMA';
  const raw = readOptional(env, name);
  if (raw === undefined) return [];
  const schema = readJsonDocument(name, raw);
  if (!isObject(schema)) fail(name, 'expected a JSON Schema object: {"type": "object", "properties": {...}, "required": [...]}');
  for (const keyword of Object.keys(schema)) {
    if (!TOP_KEYWORDS.has(keyword)) fail(name, `unsupported keyword "${keyword}"; allowed: ${[...TOP_KEYWORDS].join(', ')}`);
  }
  if (schema.type !== undefined && schema.type !== 'object') fail(name, 'type must be "object"');
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) fail(name, 'additionalProperties may only be false (fields not declared are always refused)');
  if (!isObject(schema.properties)) fail(name, 'properties must be an object of fields');
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) fail(name, 'required must be a list of field names');
  for (const field of required) {
    if (!(field in schema.properties)) fail(name, `required names "${field}", which is not among the properties`);
  }
  return Object.entries(schema.properties).map(([field, spec]) => readField(name, field, spec, required.includes(field)));
}

/** The JSON Schema ajv compiles: the fields as read, nothing else. */
function jsonSchemaOf(fields: ProfileField[]) {
  const properties = Object.fromEntries(
    fields.map(({ name, required: _required, title: _title, description: _description, ...keywords }) => [name, keywords]),
  );
  return { type: 'object', properties, required: fields.filter((f) => f.required).map((f) => f.name), additionalProperties: false };
}

function readUserFields(env: Env, fields: ProfileField[]): string[] {
  const name = 'HEADLESS_USER_FIELDS';
  const raw = readOptional(env, name);
  if (raw === undefined) return [];
  const allowed = ['first_name', 'last_name', ...fields.map((f) => f.name)];
  const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const item of items) {
    if (!allowed.includes(item)) fail(name, `"${item}" is not one of ${allowed.join(', ')}`);
  }
  return [...new Set(items)];
}

function readClaims(env: Env, fields: ProfileField[]): ProfileClaim[] {
  const name = 'IDP_OIDC_PROFILE_CLAIMS';
  const raw = readOptional(env, name);
  if (raw === undefined) return [];
  const given = readJsonDocument(name, raw);
  if (!isObject(given)) fail(name, 'expected a JSON object of field: claim or field: {"claim": ..., "scope": ...}');
  const seen = new Set<string>();
  return Object.entries(given).map(([field, value]) => {
    if (!fields.some((f) => f.name === field)) fail(name, `"${field}" is not a field of ACCOUNT_PROFILE_SCHEMA`);
    const spec = typeof value === 'string' ? { claim: value } : value;
    if (!isObject(spec) || Object.keys(spec).some((k) => k !== 'claim' && k !== 'scope')) fail(name, `${field}: expected a claim name or {"claim": ..., "scope": ...}`);
    const claim = spec.claim ?? field;
    const scope = spec.scope ?? 'profile';
    if (typeof claim !== 'string' || !/^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/.test(claim)) fail(name, `${field}: "${String(claim)}" is not a claim name`);
    if (RESERVED_CLAIMS.has(claim)) fail(name, `${field}: the claim "${claim}" is the provider's own`);
    if (seen.has(claim)) fail(name, `${field}: the claim "${claim}" is given twice`);
    seen.add(claim);
    // RFC 6749's scope-token characters; openid and offline_access grant no claims of a field.
    if (typeof scope !== 'string' || !/^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/.test(scope) || scope === 'openid' || scope === 'offline_access') {
      fail(name, `${field}: "${String(scope)}" cannot be the scope of a claim`);
    }
    return { field, claim, scope };
  });
}

export function readProfileSettings(env: Env): ProfileSettings {
  const fields = readFields(env);
  const settings: ProfileSettings = { fields, userFields: readUserFields(env, fields), claims: readClaims(env, fields) };
  // Compiled now, so that a schema ajv refuses stops the start.
  validators.set(settings, compile(fields));
  return settings;
}
