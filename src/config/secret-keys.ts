import { ConfigError, readOptional, type Env } from './env.js';

// Old secrets kept during a rotation, as Django's SECRET_KEY_FALLBACKS: they
// still verify and decrypt what they made, while everything new is made
// with the current secret. Values are never echoed in errors.

/**
 * A list of secrets: a JSON array of strings, or items separated by commas
 * (PEM keys and base64 secrets contain none). Empty when unset.
 */
export function readSecretList(env: Env, name: string, check: (secret: string, label: string) => string): string[] {
  const raw = readOptional(env, name);
  if (raw === undefined) return [];
  let items: unknown[];
  if (raw.trim().startsWith('[')) {
    try {
      items = JSON.parse(raw);
    } catch {
      throw new ConfigError(`${name}: expected a JSON array of strings or a comma-separated list`);
    }
    if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) {
      throw new ConfigError(`${name}: expected a JSON array of strings or a comma-separated list`);
    }
  } else {
    items = raw.split(',');
  }
  const secrets = (items as string[]).map((item) => item.trim()).filter(Boolean);
  return secrets.map((secret, i) => check(secret, `${name}[${i}]`));
}

export function readSecretKeyFallbacks(env: Env): string[] {
  return readSecretList(env, 'SECRET_KEY_FALLBACKS', (secret, label) => {
    if (secret.length < 32) throw new ConfigError(`${label}: expected at least 32 characters`);
    return secret;
  });
}
