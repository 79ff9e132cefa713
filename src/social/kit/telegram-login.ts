import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isObject } from './api.js';

// Telegram's login (core.telegram.org/widgets/login): Telegram signs what it
// says about the user with the bot's token: the hash is HMAC-SHA256, keyed
// with SHA-256 of the token, over the other fields as sorted `key=value`
// lines. Its auth_date says when the user confirmed; an old one is refused.

export type TelegramCheck =
  | { ok: true; fields: Record<string, unknown> }
  | { ok: false; reason: 'malformed' | 'bad_hash' | 'stale' };

/** A value as the reference writes it into the signed text (Python's str() of the JSON value). */
function asSigned(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null) return 'None';
  // Telegram sends no nested or fractional values; their Python spelling is not worth guessing.
  return null;
}

/** tgAuthResult: base64 of a JSON object (padding optional, either alphabet). */
export function decodeAuthResult(encoded: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9+/_-]+=*$/.test(encoded)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** Checks the hash with the bot's token and the age of auth_date (seconds); answers the fields without both. */
export function checkTelegramLogin(data: Record<string, unknown>, botToken: string, nowSeconds: number, validitySeconds: number): TelegramCheck {
  const { hash, ...signed } = data;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return { ok: false, reason: 'malformed' };
  const lines: string[] = [];
  for (const [key, value] of Object.entries(signed)) {
    const written = asSigned(value);
    if (written === null) return { ok: false, reason: 'malformed' };
    lines.push(`${key}=${written}`);
  }
  const checkString = lines.sort().join('\n');
  const key = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', key).update(checkString).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return { ok: false, reason: 'bad_hash' };
  const { auth_date: authDate, ...fields } = signed;
  const when = typeof authDate === 'string' && /^\d+$/.test(authDate) ? Number(authDate) : authDate;
  if (typeof when !== 'number' || !Number.isSafeInteger(when)) return { ok: false, reason: 'malformed' };
  if (nowSeconds - when > validitySeconds) return { ok: false, reason: 'stale' };
  return { ok: true, fields };
}
