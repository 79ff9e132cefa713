import { ConfigError, readEnum, readInt, readOptional, readString, type Env } from './env.js';

// Which SMS sender the server uses and how it reaches it. Secrets here (the
// webhook secret, the Twilio token) are never echoed in error messages.

export type SmsSettings =
  | { backend: 'console'; timeoutMs: number }
  | { backend: 'webhook'; timeoutMs: number; url: string; secret: string }
  | { backend: 'twilio'; timeoutMs: number; accountSid: string; authToken: string; from: string; apiBaseUrl: string };

function required(env: Env, name: string, backend: string): string {
  const value = readOptional(env, name);
  if (value === undefined) throw new ConfigError(`${name} is required when SMS_BACKEND=${backend}`);
  return value;
}

function httpUrl(name: string, value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name}: expected an http(s) URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`${name}: expected an http(s) URL`);
  return value.replace(/\/+$/, '');
}

export function readSmsSettings(env: Env): SmsSettings {
  const backend = readEnum(env, 'SMS_BACKEND', ['console', 'webhook', 'twilio'], 'console');
  const timeoutMs = readInt(env, 'SMS_TIMEOUT', 10, { min: 1, max: 120 }) * 1000;
  if (backend === 'webhook') {
    const url = httpUrl('SMS_WEBHOOK_URL', required(env, 'SMS_WEBHOOK_URL', backend));
    const secret = required(env, 'SMS_WEBHOOK_SECRET', backend);
    // The receiver checks the signature with it; a short secret is guessable.
    if (secret.length < 16) throw new ConfigError('SMS_WEBHOOK_SECRET: expected at least 16 characters');
    return { backend, timeoutMs, url, secret };
  }
  if (backend === 'twilio') {
    const accountSid = required(env, 'TWILIO_ACCOUNT_SID', backend);
    if (!/^AC[0-9a-fA-F]{32}$/.test(accountSid)) throw new ConfigError('TWILIO_ACCOUNT_SID: expected AC followed by 32 hex digits');
    return {
      backend,
      timeoutMs,
      accountSid,
      authToken: required(env, 'TWILIO_AUTH_TOKEN', backend),
      from: required(env, 'TWILIO_FROM_NUMBER', backend),
      apiBaseUrl: httpUrl('TWILIO_API_BASE_URL', readString(env, 'TWILIO_API_BASE_URL', 'https://api.twilio.com')),
    };
  }
  return { backend, timeoutMs };
}
