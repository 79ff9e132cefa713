import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from './messages.js';

// Text a person types holds no control characters. PostgreSQL refuses a NUL
// byte in text (a 500 before this check), C libraries cut strings at it, and
// the rest (line breaks, escapes, C1 codes) only ever arrive to smuggle
// something into a mail header, a log or a terminal. One check for every
// request, before validation and before any flow or store sees the value:
// every string in the JSON body, the query string, and the headers a route
// declares as input.

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The request field holding a control character: the body's (or query's)
 * top-level property it sits under, or a declared header named as the
 * validation errors name it. Undefined when there is none; null when the
 * character is in a body that is not an object.
 */
export function fieldWithControlCharacter(request: FastifyRequest): string | null | undefined {
  const inBody = searchValue(request.body);
  if (inBody !== undefined) return inBody;
  const inQuery = searchValue(request.query);
  if (inQuery !== undefined) return inQuery;
  const declared = (request.routeOptions.schema?.headers as { properties?: Record<string, unknown> } | undefined)?.properties;
  for (const name of Object.keys(declared ?? {})) {
    const value = request.headers[name];
    if (typeof value === 'string' && CONTROL.test(value)) return name.replace(/^x-/, '').replace(/-/g, '_');
  }
  return undefined;
}

/** Walks a parsed JSON value without recursion (a body may nest deeply). */
function searchValue(root: unknown): string | null | undefined {
  const topLevel = root !== null && typeof root === 'object' && !Array.isArray(root);
  const pending: Array<[string | null, unknown]> = topLevel ? Object.entries(root) : [[null, root]];
  while (pending.length > 0) {
    const [field, value] = pending.pop()!;
    if (typeof value === 'string') {
      if (CONTROL.test(value)) return field;
    } else if (value !== null && typeof value === 'object') {
      for (const inner of Object.values(value)) pending.push([field, inner]);
    }
  }
  return undefined;
}

export function refuseControlCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', (request, reply, done) => {
    const field = fieldWithControlCharacter(request);
    if (field === undefined) return done();
    const error = { code: 'invalid' as const, message: 'Control characters are not allowed.', ...(field ? { param: field } : {}) };
    reply.code(400).send(errorBody(400, [error]));
  });
}
