import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, sendErrors, type HttpErrorCode } from './messages.js';
import type { Translator } from '../i18n/catalog.js';
import { msg, type MessageRef } from '../i18n/message.js';
import { serviceUnavailable, type FieldError } from '../flows/outcome.js';
import type { Deps } from '../flows/context.js';
import { asUnavailable } from '../store/unavailable.js';
import { send } from './render.js';

// Every failure the framework raises becomes JSON in the envelope: bad JSON,
// wrong content type, oversized bodies, schema violations, unknown routes,
// wrong methods and crashes alike.

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Schema violations → `required` / `invalid` with the offending field as `param`. */
function validationErrors(errors: AjvError[], context: string | undefined): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    if (e.keyword === 'required') {
      const field = String(e.params.missingProperty ?? '');
      out.push({ code: 'required', param: context === 'headers' ? field.replace(/^x-/, '').replace(/-/g, '_') : field });
      continue;
    }
    const field = e.instancePath.split('/').filter(Boolean)[0];
    // An empty string for a field that needs text is a missing field, as Django's forms see it.
    if (e.keyword === 'minLength' && e.params.limit === 1 && field) {
      out.push({ code: 'required', param: field });
      continue;
    }
    out.push({ code: 'invalid', ...(field ? { param: field } : {}), ...(e.keyword === 'type' ? { message: msg('invalid.type', { type: String(e.params.type) }) } : {}) });
  }
  const seen = new Set<string>();
  return out.filter((e) => {
    const id = `${e.code}:${e.param ?? ''}`;
    return seen.has(id) ? false : (seen.add(id), true);
  });
}

const FRAMEWORK_ERRORS: Record<string, { status: number; code: HttpErrorCode }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json' },
};

/**
 * Errors Fastify raises before routing (a malformed URL such as `%E0%A4%A`),
 * which the error handler never sees: the same envelope as everything else.
 */
export function frameworkErrorHandler(i18n: Translator) {
  return (_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    void sendErrors(i18n, request, reply, 400, [{ code: 'bad_request' }]);
  };
}

/**
 * HTTP that Node's parser refuses (bad chunked encoding, Content-Length
 * beside Transfer-Encoding, an unknown method, oversized headers, a request
 * that took too long) never reaches a route: the answer is written to the
 * socket here, in the envelope, and the connection closed. As Node does, no
 * answer is written over a response that has already begun.
 */
export function clientErrorHandler(i18n: Translator) {
  return function (this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
    refuseMalformed(this, i18n, error, socket);
  };
}

function refuseMalformed(app: FastifyInstance, i18n: Translator, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code } =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? { status: 431, code: 'headers_too_large' as const }
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? { status: 408, code: 'request_timeout' as const }
        : { status: 400, code: 'bad_request' as const };
  app.log.debug({ err: { code: error.code }, status }, 'malformed request');
  const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  // The request's headers were never parsed: the default language.
  const body = JSON.stringify(errorBody(status, [{ code }], i18n, i18n.defaultLanguage));
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `content-language: ${i18n.defaultLanguage}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'x-content-type-options: nosniff',
    'connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * A request refused where no outcome can be returned (a lookup under a
 * route's handler, such as the provider of the request's issuer): the
 * envelope's 400 `bad_request`, naming the part of the request at fault.
 */
export class RequestRefused extends Error {
  constructor(
    readonly param: string,
    readonly refusal: MessageRef,
  ) {
    super(refusal.key);
  }
}

/** An answer in the envelope written on Node's response, below Fastify, in the request's language; the connection closes after it. */
function answerBelowFastify(i18n: Translator, request: IncomingMessage, response: ServerResponse, status: number, error: { code: HttpErrorCode; param: string; message: MessageRef }): void {
  const language = i18n.negotiate(request.headers['accept-language']);
  const body = JSON.stringify(errorBody(status, [error], i18n, language));
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'content-language': language,
    ...(i18n.languages.length > 1 ? { vary: 'Accept-Language' } : {}),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  response.end(body);
}

/**
 * An Expect header other than 100-continue (Node's `checkExpectation`):
 * Node would answer 417 with no body; the same 417 in the envelope.
 */
export function expectationFailed(i18n: Translator) {
  return (request: IncomingMessage, response: ServerResponse): void =>
    answerBelowFastify(i18n, request, response, 417, { code: 'bad_request', param: 'expect', message: msg('bad_request.expect') });
}

/**
 * An HTTP/1.1 request without Host is refused (RFC 9112 section 3.2). Node
 * does so itself with an empty body unless told not to (requireHostHeader,
 * fastify-base.ts); here it gets the envelope. HTTP/1.0 has no Host to require.
 *
 * Checked in front of Fastify's own request listener rather than in an
 * onRequest hook: a hook runs on every request of every route for what only
 * a malformed request needs, and the refusal, like the 417 above, is about
 * the HTTP message, not a route.
 */
export function refuseMissingHost(app: FastifyInstance, i18n: Translator): void {
  const server = app.server;
  const listeners = server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.headers.host === undefined && request.httpVersion === '1.1') {
      return answerBelowFastify(i18n, request, response, 400, { code: 'bad_request', param: 'host', message: msg('bad_request.host_required') });
    }
    for (const listener of listeners) listener.call(server, request, response);
  });
}

export function registerErrorHandling(app: FastifyInstance, deps: Deps): void {
  const { i18n } = deps;
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) methods.add(m);
    methodsByPath.set(route.url, methods);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const unavailable = asUnavailable(error);
    if (unavailable) {
      request.log.warn({ dependency: unavailable.dependency, failure: unavailable.code }, 'dependency unavailable');
      return send(deps, request, reply, serviceUnavailable);
    }
    if (error.validation) {
      return sendErrors(i18n, request, reply, 400, validationErrors(error.validation as AjvError[], error.validationContext));
    }
    if (error instanceof RequestRefused) {
      request.log.info({ param: error.param }, 'request refused');
      return sendErrors(i18n, request, reply, 400, [{ code: 'bad_request', param: error.param, message: error.refusal }]);
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return sendErrors(i18n, request, reply, known.status, [{ code: known.code }]);
    if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.code ?? ''))) {
      return sendErrors(i18n, request, reply, 400, [{ code: 'invalid_json' }]);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return sendErrors(i18n, request, reply, error.statusCode, [{ code: 'bad_request' }]);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendErrors(i18n, request, reply, 500, [{ code: 'server_error' }]);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = methodsByPath.get(path);
    if (allowed) {
      reply.header('allow', [...allowed].join(', '));
      return sendErrors(i18n, request, reply, 405, [{ code: 'method_not_allowed' }]);
    }
    return sendErrors(i18n, request, reply, 404, [{ code: 'not_found' }]);
  });
}
