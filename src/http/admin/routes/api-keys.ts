import { Type } from 'typebox';
import { createAdminKey, keyState, listAdminKeys, revokeAdminKey, setAdminKeyExpiry } from '../../../flows/admin/api-keys.js';
import type { AdminApiKey } from '../../../store/admin-api-keys.js';
import { msg } from '../../../i18n/message.js';
import { adminEndpoint, created, ok, refused, type AdminAnswer, type AdminCall } from '../endpoint.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id } from './common.js';

// flows/admin/api-keys.ts: the admin API's own keys, the CLI's `admin-keys`.
// Any key may list them (never a secret). Making, re-dating and revoking
// are for an administrator in the console (who has just confirmed it is
// them) or the CLI, never for an API key, even a write one: a leaked key
// must not be able to mint the keys that outlive its own revocation.

const tags = ['Admin API keys'];
const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());
const Time = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

const KeyView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scope: Type.String({ description: 'read (GET only) or write (everything but these keys).' }),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart.' }),
  state: Type.String({ description: 'active, expired or revoked.' }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Time,
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null: never.' }),
  revoked_at: Time,
});

const view = (key: AdminApiKey, now: number) => ({
  id: key.id,
  name: key.name,
  scope: key.scope,
  prefix: key.prefix,
  state: keyState(key, now),
  created_at: iso(key.createdAt),
  last_used_at: iso(key.lastUsedAt),
  expires_at: iso(key.expiresAt),
  revoked_at: iso(key.revokedAt),
});

const ExpiresAt = Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.Null()], { description: 'An ISO 8601 time in the future; null: never.' });
const KeyParams = Type.Object({ id: Id });
const WRITES_BY_CONSOLE = 'Only for an administrator in the console: with an API key, 403 `console_only`.';

/** An API key may not manage keys: only the console's administrator (or the CLI) does. */
const byConsole = (call: AdminCall): AdminAnswer | null => (call.userId === null ? refused(403, 'console_only') : null);

/** Milliseconds of an ISO time, or a refusal naming expires_at when it does not parse or is past. */
function expiryOf(raw: string | null, now: number): number | null | AdminAnswer {
  if (raw === null) return null;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return refused(400, 'invalid', 'expires_at');
  if (at <= now) return { status: 400, errors: [{ code: 'invalid', param: 'expires_at', message: msg('admin_key.expiry_past') }] };
  return at;
}

const isAnswer = (value: unknown): value is AdminAnswer => typeof value === 'object' && value !== null && 'status' in value;

export const apiKeys = [
  adminEndpoint({
    method: 'GET',
    path: '/api-keys',
    tags,
    summary: 'Admin API keys',
    description: `Every key, revoked and expired ones too, oldest first; never a secret. ${COMMON_ERRORS}`,
    response: responses({ 200: envelope(Type.Array(KeyView)) }),
    run: async (deps, call) => {
      const now = call.source().now;
      return ok((await listAdminKeys(deps)).map((k) => view(k, now)));
    },
  }),
  adminEndpoint({
    method: 'POST',
    path: '/api-keys',
    tags,
    summary: 'Make a key',
    description: `\`meta.key\` is the key, shown only in this answer (stored as a hash). ${WRITES_BY_CONSOLE} Records \`admin_key.created\`. Errors: 400 \`required\` (param name), \`invalid\` (param name, scope or expires_at). ${COMMON_ERRORS}`,
    body: Type.Object(
      {
        name: Type.String({ maxLength: 200, description: 'Who or what uses it, up to 100 characters.' }),
        scope: Type.Union([Type.Literal('read'), Type.Literal('write')]),
        expires_at: Type.Optional(ExpiresAt),
      },
      { additionalProperties: false },
    ),
    response: responses({ 201: Type.Object({ status: Type.Integer(), data: KeyView, meta: Type.Object({ key: Type.String({ description: 'Shown only now.' }) }) }) }),
    run: async (deps, call, { body }) => {
      const refusal = byConsole(call);
      if (refusal) return refusal;
      const source = call.source();
      const expiresAt = expiryOf(body.expires_at ?? null, source.now);
      if (isAnswer(expiresAt)) return expiresAt;
      const result = await createAdminKey(deps, source, { name: body.name, scope: body.scope, expiresAt });
      if (!result.ok) return { status: 400, errors: [{ code: result.error.code, param: result.error.param, message: result.error.message }] };
      return created(view(result.key, source.now), { key: result.secret });
    },
  }),
  adminEndpoint({
    method: 'PATCH',
    path: '/api-keys/:id',
    tags,
    summary: 'Change when a key expires',
    description: `A later time, or null for never; to stop a key now, revoke it. ${WRITES_BY_CONSOLE} Records \`admin_key.expiry_changed\`. Errors: 400 \`invalid\` (param expires_at), 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: KeyParams,
    body: Type.Object({ expires_at: ExpiresAt }, { additionalProperties: false }),
    response: responses({ 200: envelope(KeyView) }),
    run: async (deps, call, { params, body }) => {
      const refusal = byConsole(call);
      if (refusal) return refusal;
      const source = call.source();
      const expiresAt = expiryOf(body.expires_at, source.now);
      if (isAnswer(expiresAt)) return expiresAt;
      const result = await setAdminKeyExpiry(deps, source, Number(params.id), expiresAt);
      return result.ok ? ok(view(result.key, source.now)) : refused(404, 'not_found', 'id');
    },
  }),
  adminEndpoint({
    method: 'POST',
    path: '/api-keys/:id/revoke',
    tags,
    summary: 'Revoke a key',
    description: `For good: every request with it is refused (401) from now on, on every instance; revoking a revoked key changes nothing. ${WRITES_BY_CONSOLE} Records \`admin_key.revoked\`. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: KeyParams,
    response: responses({ 200: envelope(KeyView) }),
    run: async (deps, call, { params }) => {
      const refusal = byConsole(call);
      if (refusal) return refusal;
      const source = call.source();
      const result = await revokeAdminKey(deps, source, Number(params.id));
      return result.ok ? ok(view(result.key, source.now)) : refused(404, 'not_found', 'id');
    },
  }),
];
