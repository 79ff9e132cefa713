import type { FastifyBaseLogger, RouteHandlerMethod } from 'fastify';
import type { TSchema } from 'typebox';
import type { Deps } from '../../flows/context.js';
import type { AuditSource } from '../../audit/recorder.js';
import type { User } from '../../domain/user.js';
import { userById } from '../../flows/admin/users.js';
import { customEndpoint, type CustomEndpoint, type Endpoint, type Input } from '../endpoint.js';
import { sendErrors, type WireError } from '../messages.js';
import { refuseUnknownFields } from './unknown-fields.js';

// An admin route is declared as data like the client API's (endpoint.ts, and
// mounted by its mountEndpoints), but its flows (flows/admin, shared with
// the CLI) answer results of their own rather than an Outcome, and its
// answers are the admin envelope: `{status, data, meta?}` or errors. So a
// route's `run` maps its flow's result to an AdminAnswer, and the one
// handler below sends it.

export type AdminAnswer = { status: 200 | 201; data?: unknown; meta?: Record<string, unknown> } | { status: 400 | 403 | 404 | 409 | 503; errors: WireError[] };

export const ok = (data: unknown, meta?: Record<string, unknown>): AdminAnswer => ({ status: 200, data, meta });
export const created = (data: unknown, meta?: Record<string, unknown>): AdminAnswer => ({ status: 201, data, meta });
export const refused = (status: 400 | 403 | 404 | 409 | 503, code: WireError['code'], param?: string): AdminAnswer => ({ status, errors: [{ code, param } as WireError] });
export const invalidInput = (errors: WireError[]): AdminAnswer => ({ status: 400, errors });

/** The caller of an admin route: the audit source of a change it makes now (API key or console administrator), and the request's log. */
export interface AdminCall {
  source(): AuditSource;
  /** The administrator signed in to the console; null for an API key. */
  readonly userId: number | null;
  /** The console session the call comes from; null for an API key. */
  readonly sessionId: number | null;
  readonly log: FastifyBaseLogger;
}

type Schema = TSchema | undefined;

interface AdminRoute<B, Q, P> extends Pick<CustomEndpoint, 'method' | 'path' | 'tags' | 'summary' | 'description' | 'response'> {
  querystring?: Q;
  params?: P;
  body?: B;
}

interface FlowRoute<B, Q, P> extends AdminRoute<B, Q, P> {
  run(deps: Deps, call: AdminCall, input: Input<B, Q, P, undefined>): Promise<AdminAnswer>;
}

interface UserRoute<B, Q, P> extends AdminRoute<B, Q, P> {
  run(deps: Deps, call: AdminCall, input: Input<B, Q, P, undefined>, user: User): Promise<AdminAnswer>;
}

function adminHandler(deps: Deps, run: FlowRoute<unknown, unknown, unknown>['run']): RouteHandlerMethod {
  return async (request, reply) => {
    const call: AdminCall = { source: () => request.admin!.source(deps.clock.now()), userId: request.admin!.userId, sessionId: request.admin!.sessionId, log: request.log };
    const answer = await run(deps, call, request as unknown as Input<unknown, unknown, unknown, undefined>);
    if ('errors' in answer) return sendErrors(deps.i18n, request, reply, answer.status, answer.errors);
    return reply.code(answer.status).send({ status: answer.status, data: answer.data, ...(answer.meta ? { meta: answer.meta } : {}) });
  };
}

/** An admin route running a flow of flows/admin, its input typed from its schemas; fields they do not list are refused. */
export function adminEndpoint<B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(route: FlowRoute<B, Q, P>): Endpoint {
  const { run, ...declared } = route;
  return customEndpoint({
    ...(declared as Omit<CustomEndpoint, 'handler'>),
    preValidationWith: (deps) => refuseUnknownFields({ body: route.body, querystring: route.querystring }, deps.i18n),
    handler: (deps) => adminHandler(deps, run as FlowRoute<unknown, unknown, unknown>['run']),
  });
}

/** A route under /users/:id: 404 not_found (param id) when there is no such user, else its flow runs for them. */
export function userEndpoint<B extends Schema = undefined, Q extends Schema = undefined, P extends TSchema = TSchema>(route: UserRoute<B, Q, P>): Endpoint {
  const { run, ...declared } = route;
  return adminEndpoint<B, Q, P>({
    ...declared,
    run: async (deps, call, input) => {
      const user = await userById(deps, Number((input.params as { id: string }).id));
      return user ? run(deps, call, input, user) : refused(404, 'not_found', 'id');
    },
  });
}
