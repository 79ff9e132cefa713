import type { preValidationAsyncHookHandler } from 'fastify';
import type { TSchema } from 'typebox';
import { sendErrors, type WireError } from '../messages.js';
import type { Translator } from '../../i18n/catalog.js';
import { msg, type MessageRef } from '../../i18n/message.js';

// The admin API refuses what it does not know, by name: a misspelt field or
// filter (`emial`, `activ=false`) would otherwise be dropped or answered
// without naming it, and a script would change or list what it did not mean
// to. A schema's additionalProperties names no field, so the names are
// checked here, before the schema runs.

/** The field names a schema lists; none without a schema; null for one that lists none (left to the schema). */
function namesOf(schema: TSchema | undefined): ReadonlySet<string> | null {
  if (schema === undefined) return new Set();
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  return properties ? new Set(Object.keys(properties)) : null;
}

function unknownNames(value: unknown, known: ReadonlySet<string> | null, message: MessageRef): WireError[] {
  if (known === null || typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value)
    .filter((name) => !known.has(name))
    .map((param) => ({ code: 'invalid' as const, param, message }));
}

/** A 400 `invalid` naming each query parameter and body field the route's schemas do not list. */
export function refuseUnknownFields(route: { body?: TSchema; querystring?: TSchema }, i18n: Translator): preValidationAsyncHookHandler {
  const bodyNames = namesOf(route.body);
  const queryNames = namesOf(route.querystring);
  return async (request, reply) => {
    const errors = [...unknownNames(request.query, queryNames, msg('invalid.unknown_query_parameter')), ...unknownNames(request.body, bodyNames, msg('invalid.unknown_field'))];
    if (errors.length > 0) return sendErrors(i18n, request, reply, 400, errors);
  };
}
