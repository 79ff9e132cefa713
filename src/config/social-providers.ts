import { ConfigError, readJsonDocument } from './env.js';
import type { CommonSettings, OptionSpec, OptionValue, SocialApp } from '../social/app.js';
import { providerType, providerTypes } from '../social/providers/index.js';
import type { ProviderType } from '../social/provider-type.js';
import { isAcceptableEndpoint } from '../social/kit/loopback.js';

// SOCIALACCOUNT_PROVIDERS, in the reference's own shape:
//   {"openid_connect": {"APPS": [{"provider_id", "name", "client_id", "secret", "settings": {"server_url"}}]},
//    "github": {"SCOPE": [...], "APP": {"client_id", "secret"}}}
// Inline JSON, or the path of a file holding it. Every field is checked here,
// and a bad one stops the start with a message naming the provider and field.

const VARIABLE = 'SOCIALACCOUNT_PROVIDERS';

/** Settings every type takes, in an app's settings (lower case) and at the provider level (upper case). */
const COMMON_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  scope: { kind: 'strings' },
  auth_params: { kind: 'params' },
  verified_email: { kind: 'verified_email' },
  email_authentication: { kind: 'boolean' },
  oauth_pkce_enabled: { kind: 'boolean' },
  hidden: { kind: 'boolean', appOnly: true },
};
const APP_FIELDS = ['provider_id', 'name', 'client_id', 'secret', 'key', 'settings', 'certificate_key'];
// Safe in a URL path: the public id names the callback of an openid_connect app.
const PROVIDER_ID = /^[A-Za-z0-9_.-]{1,200}$/;

/**
 * The reference's providers that its headless API never offers (neither a
 * redirect nor a token flow: `openid` asks the user for an identifier on a
 * page of its own, `draugiem` has its own redirect). Their settings are
 * accepted, so that a configuration moved from django-allauth starts, and
 * nothing serves them, as there.
 */
const NOT_IN_HEADLESS = new Set(['openid', 'draugiem']);

function fail(where: string, message: string): never {
  throw new ConfigError(`${VARIABLE}: ${where}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseOption(where: string, name: string, spec: OptionSpec, value: unknown): OptionValue {
  const at = `${where}: ${name}`;
  switch (spec.kind) {
    case 'boolean':
      if (typeof value !== 'boolean') fail(at, 'expected true or false');
      return value;
    case 'strings':
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.trim() !== '')) fail(at, 'expected a list of strings');
      return value as string[];
    case 'params':
      if (!isObject(value) || !Object.values(value).every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
        fail(at, 'expected an object of parameter names to values');
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    case 'verified_email':
      if (typeof value === 'boolean') return value;
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) fail(at, 'expected true, false or a list of domains');
      return (value as string[]).map((d) => d.toLowerCase());
    case 'pem':
      if (typeof value !== 'string' || !value.includes('-----BEGIN')) fail(at, 'expected a PEM-encoded key');
      return value.replace(/\\n/g, '\n');
    case 'url': {
      let url: URL;
      try {
        url = new URL(String(value));
      } catch {
        fail(at, 'expected an absolute URL');
      }
      if (!isAcceptableEndpoint(url)) fail(at, 'expected an https URL (http only on this machine\'s loopback address)');
      return String(value).replace(/\/+$/, '');
    }
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) fail(at, 'expected a whole number, 0 or more');
      return value;
    case 'json':
      return value;
    case 'object':
      if (!isObject(value)) fail(at, 'expected an object');
      return value;
    case 'string':
      if (typeof value !== 'string' || value.trim() === '') fail(at, 'expected a non-empty string');
      if (spec.oneOf && !spec.oneOf.includes(value)) fail(at, `expected one of ${spec.oneOf.join(', ')}`);
      return value;
  }
}

/** Validates `given` against the specs; keys not in them are refused, so a typo does not go unnoticed. */
function parseOptions(where: string, given: Record<string, unknown>, specs: Record<string, OptionSpec>, upperCase: boolean): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = {};
  for (const [key, value] of Object.entries(given)) {
    const name = upperCase ? key.toLowerCase() : key;
    const spec = specs[name];
    if (!spec || (upperCase && (spec.appOnly || key !== key.toUpperCase())) || (!upperCase && key !== name)) {
      const accepted = Object.entries(specs)
        .filter(([, s]) => !upperCase || !s.appOnly)
        .map(([n]) => (upperCase ? n.toUpperCase() : n));
      fail(where, `unknown setting "${key}"; accepted: ${accepted.join(', ')}`);
    }
    out[name] = parseOption(where, key, spec, value);
  }
  return out;
}

/** The reference's legacy openid_connect form: {"SERVERS": [{"id", "name", "server_url", "token_auth_method", "APP": {...}}]}. */
function migrateServers(where: string, servers: unknown): unknown[] {
  if (!Array.isArray(servers)) fail(`${where}.SERVERS`, 'expected a list');
  return servers.map((server, i) => {
    if (!isObject(server) || !isObject(server.APP)) fail(`${where}.SERVERS[${i}]`, 'expected an object with APP');
    const settings: Record<string, unknown> = { server_url: server.server_url };
    if ('token_auth_method' in server) settings.token_auth_method = server.token_auth_method;
    return { ...server.APP, name: server.name ?? '', provider_id: server.id, settings };
  });
}

function commonSettings(options: Record<string, OptionValue>, type: ProviderType): CommonSettings {
  return {
    scope: (options.scope as string[] | undefined) ?? null,
    authParams: (options.auth_params as Record<string, string> | undefined) ?? {},
    verifiedEmail: (options.verified_email as boolean | string[] | undefined) ?? false,
    emailAuthentication: (options.email_authentication as boolean | undefined) ?? null,
    // On unless turned off (PKCE costs nothing and defends the code against interception), except for
    // the catalogue's providers that the reference runs without it: not every one of them accepts it.
    pkce: (options.oauth_pkce_enabled as boolean | undefined) ?? type.pkceDefault ?? true,
    hidden: (options.hidden as boolean | undefined) ?? false,
  };
}

function parseApp(type: ProviderType, where: string, raw: unknown, providerLevel: Record<string, OptionValue>): SocialApp {
  if (!isObject(raw)) fail(where, 'expected an object');
  for (const key of Object.keys(raw)) {
    if (!APP_FIELDS.includes(key)) fail(where, `unknown field "${key}"; accepted: ${APP_FIELDS.join(', ')}`);
  }
  const providerId = raw.provider_id ?? '';
  if (typeof providerId !== 'string') fail(where, 'provider_id: expected a string');
  const label = providerId ? `${where} ("${providerId}")` : where;
  if (type.id === 'openid_connect' && !providerId) fail(where, 'provider_id: required for openid_connect apps (it names the provider and its callback URL)');
  // A SAML app's id is best the IdP's entity id (a URL or URN): it names no path, so only its length and printability matter.
  if (providerId && type.id === 'saml' && !/^[\x21-\x7e]{1,200}$/.test(providerId)) fail(label, 'provider_id: expected up to 200 printable characters without spaces');
  if (providerId && type.id !== 'saml' && !PROVIDER_ID.test(providerId)) fail(label, 'provider_id: expected letters, digits, "_", "." or "-"');
  const text = (field: string, required: boolean): string => {
    const value = raw[field] ?? '';
    if (typeof value !== 'string') fail(label, `${field}: expected a string`);
    if (required && value.trim() === '') fail(label, `${field}: required`);
    return value;
  };
  const clientId = text('client_id', !type.clientIdOptional);
  const settingsRaw = raw.settings ?? {};
  if (!isObject(settingsRaw)) fail(label, 'settings: expected an object');
  // The reference still reads a top-level certificate_key (with a deprecation warning).
  const settingsGiven = 'certificate_key' in raw ? { certificate_key: raw.certificate_key, ...settingsRaw } : settingsRaw;
  const specs = { ...COMMON_OPTIONS, ...type.options };
  const appLevel = parseOptions(`${label}.settings`, settingsGiven, specs, false);
  const options = { ...providerLevel, ...appLevel };
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.required && options[name] === undefined) fail(`${label}.settings`, `${name}: required`);
  }
  const app: SocialApp = {
    type: type.id,
    id: providerId || type.id,
    name: text('name', false) || type.name,
    clientId,
    secret: text('secret', false),
    key: text('key', false),
    common: commonSettings(options, type),
    options: Object.fromEntries(Object.entries(options).filter(([name]) => !(name in COMMON_OPTIONS))),
  };
  const problem = type.validate?.(app);
  if (problem) fail(label, problem);
  return app;
}

function parseProviderType(typeId: string, raw: unknown): SocialApp[] {
  const type = providerType(typeId);
  if (!type) fail(`"${typeId}"`, `unknown provider; supported: ${providerTypes.map((t) => t.id).join(', ')}`);
  const where = typeId;
  if (!isObject(raw)) fail(where, 'expected an object');
  const { APPS, APP, SERVERS, ...rest } = raw;
  const providerLevel = parseOptions(where, rest, { ...COMMON_OPTIONS, ...type.options }, true);
  let apps: unknown[];
  if (APPS !== undefined) {
    if (!Array.isArray(APPS)) fail(`${where}.APPS`, 'expected a list of apps');
    apps = APPS;
  } else if (APP !== undefined) {
    apps = [APP];
  } else if (SERVERS !== undefined && typeId === 'openid_connect') {
    apps = migrateServers(where, SERVERS);
  } else {
    fail(where, 'expected APPS (a list of apps) or APP');
  }
  const listName = APPS !== undefined ? 'APPS' : APP !== undefined ? 'APP' : 'SERVERS';
  return apps.map((app, i) => parseApp(type, listName === 'APP' ? `${where}.APP` : `${where}.${listName}[${i}]`, app, providerLevel));
}

/**
 * The configured apps, in configuration order. Checks that each public id
 * names one visible app (a hidden app may share it, under its own client id)
 * and that no two callback URLs coincide.
 */
export function parseSocialProviders(raw: string, oidcUrlPrefix: string): SocialApp[] {
  const document = readJsonDocument(VARIABLE, raw);
  if (!isObject(document)) throw new ConfigError(`${VARIABLE}: expected a JSON object of provider types`);
  const apps = Object.entries(document)
    .filter(([typeId]) => !NOT_IN_HEADLESS.has(typeId))
    .flatMap(([typeId, config]) => parseProviderType(typeId, config));
  const seen = new Set<string>();
  for (const app of apps) {
    const keys = [`client:${app.id}:${app.clientId}`, ...(app.common.hidden ? [] : [`visible:${app.id}`])];
    if (keys.some((key) => seen.has(key))) fail(`"${app.id}"`, 'two apps share this provider id (mark all but one "hidden": true, each with its own client_id)');
    keys.forEach((key) => seen.add(key));
    // Without the oidc prefix an openid_connect app's callback would sit beside the other providers'.
    if (app.type === 'openid_connect' && oidcUrlPrefix === '' && providerType(app.id)) {
      fail(`"${app.id}"`, 'this provider_id clashes with a provider type\'s callback URL while SOCIALACCOUNT_OPENID_CONNECT_URL_PREFIX is empty');
    }
  }
  return apps;
}
