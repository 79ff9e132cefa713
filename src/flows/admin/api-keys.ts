import { hashSecret, randomKey } from '../../security/secrets.js';
import { msg, type MessageRef } from '../../i18n/message.js';
import {
  findAdminApiKey,
  findAdminApiKeyByHash,
  insertAdminApiKey,
  listAdminApiKeys,
  revokeAdminApiKey,
  setAdminApiKeyExpiry,
  touchAdminApiKey,
  type AdminApiKey,
  type AdminKeyScope,
} from '../../store/admin-api-keys.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import type { AdminDeps } from './webhooks.js';

// Keys of the admin REST API: made, listed, expired and revoked with the
// CLI; shown once when made and stored only as a SHA-256 hash. A key is
// looked up by that hash on every request (no cache in any process), so
// revoking it or letting it expire refuses it at once on every instance.

export const ADMIN_KEY_SCOPES: readonly AdminKeyScope[] = ['read', 'write'];

/** Every key starts with this, so that a leaked one is recognisable (secret scanners, logs). */
export const ADMIN_KEY_PREFIX = 'hak_';

/** last_used_at is written at most once a minute per key, however busy the key. */
export const LAST_USED_INTERVAL_MS = 60_000;

export type KeyState = 'active' | 'expired' | 'revoked';

export function keyState(key: AdminApiKey, now: number): KeyState {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  return 'active';
}

export type CreateKeyResult = { ok: true; key: AdminApiKey; secret: string } | { ok: false; error: { code: 'required' | 'invalid'; param: 'name' | 'scope' | 'expires_at'; message: MessageRef } };

/** Makes a key; the secret is in the answer and nowhere else. */
export async function createAdminKey(deps: AdminDeps, source: AuditSource, input: { name: string; scope: string; expiresAt: number | null }): Promise<CreateKeyResult> {
  const name = input.name.trim();
  if (name === '') return { ok: false, error: { code: 'required', param: 'name', message: msg('admin_key.name_required') } };
  if (name.length > 100) return { ok: false, error: { code: 'invalid', param: 'name', message: msg('admin_key.name_long', { max: 100 }) } };
  if (!(ADMIN_KEY_SCOPES as readonly string[]).includes(input.scope)) return { ok: false, error: { code: 'invalid', param: 'scope', message: msg('admin_key.scope') } };
  if (input.expiresAt !== null && input.expiresAt <= source.now) return { ok: false, error: { code: 'invalid', param: 'expires_at', message: msg('admin_key.expiry_past') } };
  const secret = `${ADMIN_KEY_PREFIX}${randomKey(32)}`;
  const key = await deps.db.transaction().execute(async (tx) => {
    const made = await insertAdminApiKey(tx, { name, scope: input.scope as AdminKeyScope, prefix: secret.slice(0, 12), keyHash: hashSecret(secret), now: source.now, expiresAt: input.expiresAt });
    await recordEvent(deps, tx, source, 'admin_key.created', { userId: null, detail: { key_id: made.id } });
    return made;
  });
  return { ok: true, key, secret };
}

export function listAdminKeys(deps: AdminDeps): Promise<AdminApiKey[]> {
  return listAdminApiKeys(deps.db);
}

export type KeyChangeResult = { ok: true; key: AdminApiKey; changed: boolean } | { ok: false; reason: 'not_found' };

/** Revokes a key for good; revoking a revoked key changes nothing. */
export async function revokeAdminKey(deps: AdminDeps, source: AuditSource, id: number): Promise<KeyChangeResult> {
  return deps.db.transaction().execute(async (tx): Promise<KeyChangeResult> => {
    const key = await findAdminApiKey(tx, id);
    if (!key) return { ok: false, reason: 'not_found' };
    const changed = await revokeAdminApiKey(tx, id, source.now);
    if (changed) await recordEvent(deps, tx, source, 'admin_key.revoked', { userId: null, detail: { key_id: id } });
    return { ok: true, key: changed ? { ...key, revokedAt: source.now } : key, changed };
  });
}

/** Sets when a key expires: now (expiring it at once), a later time, or never (null). */
export async function setAdminKeyExpiry(deps: AdminDeps, source: AuditSource, id: number, expiresAt: number | null): Promise<KeyChangeResult> {
  return deps.db.transaction().execute(async (tx): Promise<KeyChangeResult> => {
    const key = await findAdminApiKey(tx, id);
    if (!key) return { ok: false, reason: 'not_found' };
    await setAdminApiKeyExpiry(tx, id, expiresAt);
    await recordEvent(deps, tx, source, 'admin_key.expiry_changed', { userId: null, detail: { key_id: id } });
    return { ok: true, key: { ...key, expiresAt }, changed: true };
  });
}

export type KeyCheck = { ok: true; key: AdminApiKey } | { ok: false };

/**
 * The key a request presents, if it is known, not revoked and not expired.
 * One indexed read per request; last_used_at is written at most once a
 * minute per key (a conditional update, so instances do not pile up writes).
 */
export async function authenticateAdminKey(deps: AdminDeps, presented: string, now: number): Promise<KeyCheck> {
  if (!presented.startsWith(ADMIN_KEY_PREFIX) || presented.length > 200) return { ok: false };
  const key = await findAdminApiKeyByHash(deps.db, hashSecret(presented));
  if (!key || keyState(key, now) !== 'active') return { ok: false };
  if (key.lastUsedAt === null || now - key.lastUsedAt >= LAST_USED_INTERVAL_MS) {
    await touchAdminApiKey(deps.db, key.id, now, now - LAST_USED_INTERVAL_MS);
  }
  return { ok: true, key };
}
