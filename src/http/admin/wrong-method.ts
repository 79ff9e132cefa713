import type { FastifyInstance } from 'fastify';
import type { Translator } from '../../i18n/catalog.js';
import { refuse } from './caller.js';

// Under a prefix of admin routes, a path that exists with other methods is
// answered 405 with an Allow header, as REST clients expect, rather than 404.
// The listener's own handler (errors.ts) knows literal paths only; most
// admin paths hold ids (/users/:id), so the router is asked here.

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export function answerWrongMethods(scope: FastifyInstance, i18n: Translator): void {
  scope.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]!;
    const allowed = METHODS.filter((method) => scope.findRoute({ method, url }) !== null);
    if (allowed.length === 0) return refuse(i18n, request, reply, 404, 'not_found');
    reply.header('allow', allowed.join(', '));
    return refuse(i18n, request, reply, 405, 'method_not_allowed');
  });
}
