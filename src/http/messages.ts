import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode, FieldError } from '../flows/outcome.js';
import type { Translator } from '../i18n/catalog.js';
import type { MessageRef } from '../i18n/message.js';
import { answerLanguage } from './answer-language.js';

/** Codes the http layer itself answers with, before any flow runs. */
export type HttpErrorCode =
  | 'invalid_json'
  | 'bad_request'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'request_timeout'
  | 'not_found'
  | 'method_not_allowed'
  | 'csrf_failed'
  | 'not_ready'
  | 'server_error'
  // The admin API and console (http/admin).
  | 'invalid_api_key'
  | 'insufficient_scope'
  | 'too_many_requests'
  | 'not_authenticated'
  | 'admin_required'
  | 'mfa_required'
  | 'mfa_enrollment_required'
  | 'reauthentication_required'
  | 'last_admin'
  | 'not_failed'
  | 'no_email_address'
  | 'password_reset_by_code'
  | 'client_exists'
  | 'public_client'
  | 'private_key_jwt_client'
  | 'console_only';

export type WireErrorCode = ErrorCode | HttpErrorCode;

/** An error as the envelope lists it: a flow's, or one of the http layer's own. */
export type WireError = FieldError | { code: HttpErrorCode; param?: string; message?: MessageRef };

/**
 * The envelope of `errors`, each message in `language`: the code's own message
 * (`locales/<language>/api.json`, keyed by the code), or the more specific one the
 * error names. Codes and params are the wire's and never depend on the language.
 */
export function errorBody(status: number, errors: WireError[], i18n: Translator, language: string) {
  return {
    status,
    errors: errors.map((e) => ({
      code: e.code,
      message: e.message ? i18n.t(language, `api.${e.message.key}`, e.message.values) : i18n.t(language, `api.${e.code}`),
      ...(e.param ? { param: e.param } : {}),
    })),
  };
}

/** The envelope of `errors` in the request's language, with Content-Language and Vary saying so. */
export function errorsFor(i18n: Translator, request: FastifyRequest, reply: FastifyReply, status: number, errors: WireError[]) {
  return errorBody(status, errors, i18n, answerLanguage(i18n, request, reply));
}

/** Answers `status` with `errors` in the request's language. */
export function sendErrors(i18n: Translator, request: FastifyRequest, reply: FastifyReply, status: number, errors: WireError[]): FastifyReply {
  return reply.code(status).send(errorsFor(i18n, request, reply, status, errors));
}
