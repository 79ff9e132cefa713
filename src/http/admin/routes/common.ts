import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import type { User } from '../../../domain/user.js';
import type { FieldError } from '../../../flows/outcome.js';
import type { AuditSource } from '../../../audit/recorder.js';
import { userById } from '../../../flows/admin/users.js';
import { errorBody } from '../../messages.js';
import { refuse } from '../caller.js';

// What every admin route shares: ids in paths, the user a path names,
// the envelope, and opaque cursors.

export const Id = Type.String({ pattern: '^[0-9]{1,15}$', description: 'A numeric id.' });
export const UserParams = Type.Object({ id: Id });
export const Limit = Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'Page size, 1 to 1000 (default 50).' }));

export function limitOf(raw: string | undefined): number {
  return raw === undefined ? 50 : Math.min(1000, Math.max(1, Number(raw)));
}

export function ok(reply: FastifyReply, data: unknown, meta?: Record<string, unknown>, status = 200): FastifyReply {
  return reply.code(status).send({ status, data, ...(meta ? { meta } : {}) });
}

export function invalidInput(reply: FastifyReply, errors: FieldError[]): FastifyReply {
  return reply.code(400).send(errorBody(400, errors));
}

/** The user the path names, or a 404 answered. */
export async function pathUser(deps: Deps, id: string, reply: FastifyReply): Promise<User | null> {
  const user = await userById(deps, Number(id));
  if (!user) refuse(reply, 404, 'not_found', 'id');
  return user;
}

/** The audit source of a change this request makes now. */
export function sourceOf(deps: Deps, request: FastifyRequest): AuditSource {
  return request.admin!.source(deps.clock.now());
}

/**
 * Cursors are opaque to clients: the position after which the next page
 * starts (a user id), encoded so that clients pass it back as they got it.
 */
export function encodeCursor(position: number): string {
  return Buffer.from(`v1:${position}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null when it is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  const match = /^v1:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
}

/** Shared description text: the errors every admin route may answer. */
export const COMMON_ERRORS =
  '401 `invalid_api_key`; 403 `insufficient_scope` for a change with a read key; 400 `invalid` (with `param`) for malformed input; 429 `too_many_requests` after repeated bad keys.';
