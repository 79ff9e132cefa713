import type { FastifyContextConfig, FastifyInstance, FastifySchema, RouteHandlerMethod, RouteOptions, preValidationAsyncHookHandler } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { ClientKind } from '../config/config.js';
import type { Deps, RequestContext } from '../flows/context.js';
import type { Outcome } from '../flows/outcome.js';
import { isPromiseLike, type MaybePromise } from '../kernel/maybe-promise.js';
import { requestContext } from './client-auth.js';
import { rememberLanguage } from '../flows/language.js';
import type { Counted } from './outcome-metrics.js';
import { send } from './render.js';

// A route is declared once, as data: method, path, the settings that turn it
// off, its documentation, the schemas that validate it (and that the flow's
// input type derives from), what the login and refresh metrics count, and
// the flow it runs. mountEndpoints registers each with the one handler every
// flow route shares: the flow's outcome, rendered by render.ts's send().

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** The client prefix a route is mounted under; null outside them (probes, provider callbacks). */
export type Mount = ClientKind | null;

type StaticOf<S> = S extends TSchema ? Static<S> : undefined;

/** The parts of the request a flow endpoint reads, as its schemas validated them. */
export interface Input<B, Q, P, H> {
  readonly body: StaticOf<B>;
  readonly query: StaticOf<Q>;
  readonly params: StaticOf<P>;
  readonly headers: StaticOf<H>;
  /** The origin the request reached: the OpenID provider's issuer when IDP_OIDC_ISSUER is unset. */
  readonly protocol: 'http' | 'https';
  readonly host: string;
}

interface Route<B, Q, P, H> {
  /** Several for a route that answers them alike (the OpenID provider's own). */
  method: Method | Method[];
  path: string;
  /** False where the settings (or the client) leave the route out; asked once, when mounting. */
  when?: (deps: Deps, client: Mount) => boolean;
  /** OpenAPI: every route's doc lists the error codes it can return. */
  tags?: string[];
  summary?: string;
  description?: string;
  /** Left out of the OpenAPI document. */
  hide?: true;
  consumes?: string[];
  headers?: H;
  querystring?: Q;
  params?: P;
  body?: B;
  /** Response schemas, also the serializers: no field reaches a client unless it is named here. */
  response?: Record<number, TSchema>;
  /** What the login or refresh metrics count for this route (outcome-metrics.ts). */
  counts?: Counted;
  config?: FastifyContextConfig;
  preValidation?: preValidationAsyncHookHandler;
  /** A preValidation hook made with the dependencies (one that refuses in the request's language); runs after `preValidation`. */
  preValidationWith?: (deps: Deps) => preValidationAsyncHookHandler;
  /** Takes form posts (application/x-www-form-urlencoded) besides JSON. */
  forms?: true;
}

/** A route that runs a flow and renders its outcome. */
export interface FlowEndpoint<B = unknown, Q = unknown, P = unknown, H = unknown> extends Route<B, Q, P, H> {
  /** The flow; a value, not a promise, when it answers from memory (no promise is then made). */
  run(deps: Deps, ctx: RequestContext, input: Input<B, Q, P, H>): MaybePromise<Outcome>;
}

/** A route that answers by itself: browser navigations, probes, documents outside the API envelope. */
export interface CustomEndpoint extends Route<TSchema, TSchema, TSchema, TSchema> {
  /** The handler; null when there is nothing to serve (the route is then left out, as by `when`). */
  handler(deps: Deps, client: Mount): RouteHandlerMethod | null;
}

export type Endpoint = FlowEndpoint<any, any, any, any> | CustomEndpoint;

type Schema = TSchema | undefined;

/** A flow endpoint, its input typed from its schemas. */
export function endpoint<B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined, H extends Schema = undefined>(
  e: FlowEndpoint<B, Q, P, H>,
): Endpoint {
  return e;
}

export function customEndpoint(e: CustomEndpoint): Endpoint {
  return e;
}

/** The same endpoints, each also only where `when` holds. */
export function only(when: (deps: Deps, client: Mount) => boolean, endpoints: Endpoint[]): Endpoint[] {
  return endpoints.map((e) => {
    const own = e.when;
    return { ...e, when: own ? (deps: Deps, client: Mount) => when(deps, client) && own(deps, client) : when };
  });
}

/** SOCIALACCOUNT_ONLY: accounts come from providers, with no local credentials (passwords, addresses, numbers). */
export const local = ({ config }: Deps): boolean => !config.social.only;

/** Form posts, for the routes that take them only; the rest of the API takes JSON alone. */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

function flowHandler(deps: Deps, run: FlowEndpoint['run']): RouteHandlerMethod {
  // Not async: a flow that answers from memory (GET /auth/session) then needs no promise at all.
  return (request, reply) => {
    const ctx = requestContext(request, deps);
    const input = request as unknown as Input<unknown, unknown, unknown, unknown>;
    // A change request in another language than the user's stored one updates it first (never a read).
    const remembered = request.method === 'GET' ? null : rememberLanguage(deps, ctx);
    const outcome = remembered ? remembered.then(() => run(deps, ctx, input)) : run(deps, ctx, input);
    return isPromiseLike(outcome) ? outcome.then((answer) => send(deps, request, reply, answer)) : send(deps, request, reply, outcome);
  };
}

function preValidationOf(deps: Deps, e: Endpoint): Pick<RouteOptions, 'preValidation'> {
  const hooks = [...(e.preValidation ? [e.preValidation] : []), ...(e.preValidationWith ? [e.preValidationWith(deps)] : [])];
  return hooks.length === 0 ? {} : { preValidation: hooks.length === 1 ? hooks[0] : hooks };
}

function routeOptions(deps: Deps, client: Mount, e: Endpoint): RouteOptions | null {
  const handler = 'run' in e ? flowHandler(deps, e.run) : e.handler(deps, client);
  if (!handler) return null;
  const schema: FastifySchema & Record<string, unknown> = {};
  if (e.hide) schema.hide = true;
  if (e.tags) schema.tags = e.tags;
  if (e.summary !== undefined) schema.summary = e.summary;
  if (e.description !== undefined) schema.description = e.description;
  if (e.consumes) schema.consumes = e.consumes;
  if (e.headers) schema.headers = e.headers;
  if (e.querystring) schema.querystring = e.querystring;
  if (e.params) schema.params = e.params;
  if (e.body) schema.body = e.body;
  if (e.response) schema.response = e.response;
  const config = e.counts ? { ...e.config, counted: e.counts } : e.config;
  return {
    method: e.method,
    url: e.path,
    schema,
    ...(config ? { config } : {}),
    ...preValidationOf(deps, e),
    handler,
  };
}

/** Registers the endpoints `when` keeps, in their order (the order of the OpenAPI document and of Allow headers). */
export async function mountEndpoints(scope: FastifyInstance, deps: Deps, client: Mount, endpoints: readonly Endpoint[]): Promise<void> {
  for (const e of endpoints) {
    if (e.when && !e.when(deps, client)) continue;
    const options = routeOptions(deps, client, e);
    if (!options) continue;
    if (!e.forms) {
      scope.route(options);
      continue;
    }
    await scope.register(async (forms) => {
      acceptForms(forms);
      forms.route(options);
    });
  }
}
