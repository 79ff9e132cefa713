import { readFileSync } from 'node:fs';
// Typed readers for environment variables. Each failure names the variable
// and what it accepts, so a bad deployment stops with one clear line.

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

export function readString(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

export function readOptional(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

export function readInt(env: Env, name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallback;
  const min = bounds.min ?? 0;
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  if (!/^-?\d+$/.test(raw.trim())) {
    throw new ConfigError(`${name}: expected an integer between ${min} and ${max}, got "${raw}"`);
  }
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw new ConfigError(`${name}: expected an integer between ${min} and ${max}, got ${value}`);
  }
  return value;
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

export function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallback;
  const v = raw.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw new ConfigError(`${name}: expected true or false, got "${raw}"`);
}

export function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallback;
  const v = raw.trim().toLowerCase() as T;
  if (!allowed.includes(v)) {
    throw new ConfigError(`${name}: expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return v;
}

/** A comma-separated list whose items must all be in `allowed`. */
export function readList<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T[]): T[] {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallback;
  const items = raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (items.length === 0) throw new ConfigError(`${name}: expected a comma-separated list of ${allowed.join(', ')}`);
  for (const item of items) {
    if (!allowed.includes(item as T)) {
      throw new ConfigError(`${name}: "${item}" is not one of ${allowed.join(', ')}`);
    }
  }
  return [...new Set(items)] as T[];
}

export function readJsonObject(env: Env, name: string): Record<string, unknown> | undefined {
  const raw = readOptional(env, name);
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${name}: expected a JSON object, got unparsable text`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`${name}: expected a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** A setting holding inline JSON (when it starts with `{`) or the path of a JSON file. */
export function readJsonDocument(name: string, raw: string): unknown {
  const text = raw.trim();
  let json = text;
  if (!text.startsWith('{')) {
    try {
      json = readFileSync(text, 'utf8');
    } catch (error) {
      throw new ConfigError(`${name}: neither inline JSON nor a readable file: ${(error as Error).message}`);
    }
  }
  try {
    return JSON.parse(json);
  } catch {
    throw new ConfigError(`${name}: expected a JSON object, got unparsable text`);
  }
}
