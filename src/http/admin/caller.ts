import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Translator } from '../../i18n/catalog.js';
import type { AuditSource } from '../../audit/recorder.js';
import { sendErrors, type HttpErrorCode, type WireErrorCode } from '../messages.js';

// Who is calling the admin routes: an API key (key-auth.ts) or an
// administrator in the console (console/auth.ts). The routes are written
// once and mounted behind either; each write is recorded with its actor.

export interface AdminCaller {
  /** The audit source of a change made now by this caller. */
  source(now: number): AuditSource;
  /** The administrator signed in to the console; null for an API key, which is no user. */
  readonly userId: number | null;
  /** The console session the administrator is calling from; null for an API key. */
  readonly sessionId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    admin: AdminCaller | null;
  }
}

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function refuse(i18n: Translator, request: FastifyRequest, reply: FastifyReply, status: number, code: WireErrorCode, param?: string): FastifyReply {
  // Every wire code has its message in locales/<language>/api.json, flow codes and http codes alike.
  return sendErrors(i18n, request, reply, status, [{ code: code as HttpErrorCode, ...(param ? { param } : {}) }]);
}
