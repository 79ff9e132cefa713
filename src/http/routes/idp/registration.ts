import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../flows/context.js';
import { deleteRegistration, readRegistration, registerClient, updateRegistration, type RegistrationAnswer, type RegistrationRequest } from '../../../flows/idp/registration.js';
import { REGISTRATION_PATH } from '../../../idp/paths.js';
import { userAgentOf } from '../../client-auth.js';
import { customEndpoint, mountEndpoints, type Endpoint } from '../../endpoint.js';
import type { IdpProviders } from './provider.js';

// flows/idp/registration.ts over HTTP (IDP_OIDC_REGISTRATION): RFC 7591's
// registration endpoint and RFC 7592's client configuration endpoint, in
// OAuth's JSON (errors as `{error, error_description}`, 401s with a Bearer
// challenge), never cached. Mounted only when registration is on.

/** A client's metadata is small; a body beyond this is refused before it is read. */
const BODY_LIMIT = 64 * 1024;

function bearerOf(request: FastifyRequest): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;
}

/** The body as JSON; anything else is `invalid_client_metadata` (RFC 7591 section 3.2.2). */
function bodyOf(request: FastifyRequest): { ok: true; value: unknown } | { ok: false } {
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(typeof request.body === 'string' ? request.body : '') };
  } catch {
    return { ok: false };
  }
}

function send(reply: FastifyReply, answer: RegistrationAnswer): FastifyReply {
  reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
  if (answer.status === 204) return reply.code(204).send();
  if ('body' in answer) return reply.code(answer.status).type('application/json').send(answer.body);
  if (answer.status === 401) reply.header('www-authenticate', `Bearer error="${answer.error}", error_description="${answer.description.replaceAll('"', "'")}"`);
  return reply.code(answer.status).type('application/json').send({ error: answer.error, error_description: answer.description });
}

type Action = (deps: Deps, request: FastifyRequest, input: RegistrationRequest) => Promise<RegistrationAnswer>;

function route(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, providers: IdpProviders, action: Action, readsBody: boolean): Endpoint {
  return customEndpoint({
    method,
    path,
    hide: true,
    when: (deps) => deps.config.idp.dynamicClients.registration !== 'off',
    handler: (deps) => async (request, reply) => {
      const body = readsBody ? bodyOf(request) : { ok: true as const, value: undefined };
      if (!body.ok) return send(reply, { status: 400, error: 'invalid_client_metadata', description: 'the body is a JSON object (Content-Type: application/json)' });
      return send(reply, await action(deps, request, { bearer: bearerOf(request), body: body.value, issuer: providers(request).issuer }));
    },
  });
}

const sourceOf = (deps: Deps, request: FastifyRequest) => ({ ip: request.ip, userAgent: userAgentOf(request), now: deps.clock.now() });
const clientIdOf = (request: FastifyRequest) => (request.params as { client_id: string }).client_id;

export async function registrationRoutes(app: FastifyInstance, deps: Deps, providers: IdpProviders): Promise<void> {
  await app.register(async (scope) => {
    // The body is read as text and parsed here, so that bad JSON gets OAuth's error rather than the API's.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
    // A body too large or cut short is still answered in OAuth's form; the server's own errors go on to its handler.
    scope.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
      if (!error.statusCode || error.statusCode >= 500) throw error;
      return reply.code(error.statusCode).headers({ 'cache-control': 'no-store' }).type('application/json').send({ error: 'invalid_request', error_description: error.message });
    });
    const client = `${REGISTRATION_PATH}/:client_id`;
    await mountEndpoints(scope, deps, null, [
      route('POST', REGISTRATION_PATH, providers, (deps, request, input) => registerClient(deps, sourceOf(deps, request), input), true),
      route('GET', client, providers, (deps, request, input) => readRegistration(deps, input, clientIdOf(request)), false),
      route('PUT', client, providers, (deps, request, input) => updateRegistration(deps, sourceOf(deps, request), input, clientIdOf(request)), true),
      route('DELETE', client, providers, (deps, request, input) => deleteRegistration(deps, sourceOf(deps, request), input, clientIdOf(request)), false),
    ]);
  });
}
