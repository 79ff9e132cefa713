import { createHash, createHmac } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { constantTimeEqual } from '../../../security/secrets.js';
import type { AuthMethod } from '../../../domain/session.js';

// Django's database sessions: session_data is signing.dumps(data,
// compress=True) under the session store's salt, "<payload>:<timestamp>:<signature>",
// the payload being URL-safe base64 of JSON, zlib-compressed when it starts
// with ".". The session's key (the cookie, or allauth's app session token) is
// the row's key and stays valid here as it is: only its SHA-256 is stored.

const SESSION_SIGNER_SALT = 'django.contrib.sessions.SessionStoresigner';
const AUTH_HASH_SALT = 'django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash';
// Sessions hold a few hundred bytes; the bound keeps a hostile row from inflating into gigabytes.
const MAX_SESSION_BYTES = 1024 * 1024;

export type DecodedSession = { ok: true; data: Record<string, unknown> } | { ok: false; reason: 'bad_signature' | 'unreadable' };

/** Django's salted_hmac with SHA-256: HMAC keyed with SHA-256 of salt + secret. */
function saltedHmac(salt: string, value: string, secret: string): Buffer {
  const key = createHash('sha256').update(salt + secret, 'utf8').digest();
  return createHmac('sha256', key).update(value, 'utf8').digest();
}

/** The session's data, when one of `secretKeys` (SECRET_KEY and its fallbacks) signed it. */
export function readDjangoSession(sessionData: string, secretKeys: string[]): DecodedSession {
  const cut = sessionData.lastIndexOf(':');
  const signed = sessionData.slice(0, cut);
  const signature = sessionData.slice(cut + 1);
  if (cut < 0 || !secretKeys.some((key) => constantTimeEqual(signature, saltedHmac(SESSION_SIGNER_SALT, signed, key).toString('base64url')))) {
    return { ok: false, reason: 'bad_signature' };
  }
  const encoded = signed.slice(0, signed.indexOf(':'));
  try {
    const compressed = encoded.startsWith('.');
    const bytes = Buffer.from(compressed ? encoded.slice(1) : encoded, 'base64url');
    const json = compressed ? inflateSync(bytes, { maxOutputLength: MAX_SESSION_BYTES }) : bytes;
    const data: unknown = JSON.parse(json.toString('utf8'));
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, reason: 'unreadable' };
    return { ok: true, data: data as Record<string, unknown> };
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}

/** The logged-in user's id (`_auth_user_id`), or null for an anonymous session. */
export function sessionUserId(data: Record<string, unknown>): number | null {
  const id = data._auth_user_id;
  return typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/**
 * Whether the session is bound to this password hash, as Django checks on
 * every request (`_auth_user_hash`): a session from before a password change
 * is no longer logged in there, and must not be here.
 */
export function authHashMatches(data: Record<string, unknown>, passwordHash: string, secretKeys: string[]): boolean {
  const hash = data._auth_user_hash;
  return typeof hash === 'string' && secretKeys.some((key) => constantTimeEqual(hash, saltedHmac(AUTH_HASH_SALT, passwordHash, key).toString('hex')));
}

/**
 * allauth's record of how the user authenticated (account_authentication_methods),
 * as far as this server knows the methods: MFA and provider logins are left
 * out until their import steps exist.
 */
export function authMethods(data: Record<string, unknown>): AuthMethod[] {
  const recorded = data.account_authentication_methods;
  if (!Array.isArray(recorded)) return [];
  const methods: AuthMethod[] = [];
  for (const entry of recorded as Array<Record<string, unknown>>) {
    if (typeof entry !== 'object' || entry === null || typeof entry.at !== 'number' || !Number.isFinite(entry.at)) continue;
    const at = entry.at;
    const text = (key: string) => (typeof entry[key] === 'string' ? { [key]: entry[key] as string } : {});
    if (entry.method === 'password' && entry.reauthenticated === true) methods.push({ method: 'password', at, reauthenticated: true });
    else if (entry.method === 'password') methods.push({ method: 'password', at, ...text('email'), ...text('username'), ...text('phone') });
    else if (entry.method === 'code') methods.push({ method: 'code', at, ...text('email'), ...text('phone') });
    else if (entry.method === 'password_reset') methods.push({ method: 'password_reset', at, ...text('email') });
  }
  return methods;
}
