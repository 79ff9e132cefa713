import type { FastifyInstance, FastifyRequest, preValidationHookHandler, RouteOptions } from 'fastify';
import { sendErrors } from './messages.js';
import type { Translator } from '../i18n/catalog.js';
import { msg } from '../i18n/message.js';

// Text a person types holds no control characters. PostgreSQL refuses a NUL
// byte in text (a 500 before this check), C libraries cut strings at it, and
// the rest (line breaks, escapes, C1 codes) only ever arrive to smuggle
// something into a mail header, a log or a terminal. One check for every
// request, before validation and before any flow or store sees the value:
// every string in the JSON body, the query string, and the headers a route
// declares as input.
//
// The check is attached to each route as it is registered, knowing the
// headers that route declares, so a request pays for no lookup of its
// route's schema, and a request with no body and no query (most reads) for
// next to nothing.

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A declared header: its name, and the param naming it as validation errors do. */
type DeclaredHeader = readonly [name: string, param: string];

/**
 * The request field holding a control character: the body's (or query's)
 * top-level property it sits under, or a declared header. Undefined when
 * there is none; null when the character is in a body that is not an object.
 */
function fieldWithControlCharacter(request: FastifyRequest, headers: readonly DeclaredHeader[]): string | null | undefined {
  if (request.body !== undefined) {
    const inBody = searchValue(request.body);
    if (inBody !== undefined) return inBody;
  }
  const inQuery = searchValue(request.query);
  if (inQuery !== undefined) return inQuery;
  for (const [name, param] of headers) {
    const value = request.headers[name];
    if (typeof value === 'string' && CONTROL.test(value)) return param;
  }
  return undefined;
}

/** The top-level field of `root` under which a control character sits (null for a root that is no object). */
function searchValue(root: unknown): string | null | undefined {
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return holdsControlCharacter(root) ? null : undefined;
  for (const field in root) {
    if (holdsControlCharacter((root as Record<string, unknown>)[field])) return field;
  }
  return undefined;
}

/** Whether a string anywhere in `value` holds a control character; a stack, not recursion (a body may nest deeply). */
function holdsControlCharacter(value: unknown): boolean {
  if (typeof value === 'string') return CONTROL.test(value);
  if (value === null || typeof value !== 'object') return false;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (CONTROL.test(next)) return true;
    } else if (next !== null && typeof next === 'object') {
      for (const inner of Object.values(next)) pending.push(inner);
    }
  }
  return false;
}

function declaredHeaders(route: RouteOptions): DeclaredHeader[] {
  const properties = (route.schema?.headers as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return Object.keys(properties).map((name) => [name, name.replace(/^x-/, '').replace(/-/g, '_')] as const);
}

/** Every route registered on `app` from now on checks its requests, ahead of its own preValidation hooks. */
export function refuseControlCharacters(app: FastifyInstance, i18n: Translator): void {
  app.addHook('onRoute', (route) => {
    const headers = declaredHeaders(route);
    const check: preValidationHookHandler = (request, reply, done) => {
      const field = fieldWithControlCharacter(request, headers);
      if (field === undefined) return done();
      const error = { code: 'invalid' as const, message: msg('invalid.control_characters'), ...(field ? { param: field } : {}) };
      sendErrors(i18n, request, reply, 400, [error]);
    };
    route.preValidation = [check, ...[route.preValidation ?? []].flat()];
  });
}
