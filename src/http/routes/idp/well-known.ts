import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../flows/context.js';
import type { ProtectedResource } from '../../../config/idp-registration.js';
import { customEndpoint, mountEndpoints } from '../../endpoint.js';
import type { IdpProviders } from './provider.js';

// Metadata documents beside OpenID discovery, for OAuth clients (MCP's
// among them) that look for them: the authorization server's (RFC 8414),
// the same document as /.well-known/openid-configuration, and that of each
// resource server behind us (RFC 9728, IDP_OIDC_PROTECTED_RESOURCES),
// which names us as its authorization server. Public documents: any origin
// may read them.

const PRM = '/.well-known/oauth-protected-resource';
const AS = '/.well-known/oauth-authorization-server';

/** The part of a resource identifier its metadata URL ends with (RFC 9728 section 3.1): path and query, without a lone slash. */
function suffixOf(resource: string): string {
  const url = new URL(resource);
  const rest = resource.slice(url.origin.length);
  return rest === '/' ? '' : rest;
}

/** The resource this request's path names; when several share it, the one on the host asked. */
function resourceFor(resources: readonly ProtectedResource[], request: FastifyRequest): ProtectedResource | undefined {
  const suffix = (request.raw.url ?? '').slice(PRM.length);
  const matching = resources.filter((r) => suffixOf(r.resource) === suffix);
  return matching.find((r) => new URL(r.resource).host === request.host) ?? matching[0];
}

function protectedResource(deps: Deps, providers: IdpProviders, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('access-control-allow-origin', '*');
  const resource = resourceFor(deps.config.idp.dynamicClients.protectedResources, request);
  if (!resource) return reply.code(404).type('application/json').send({ error: 'not_found', error_description: 'no protected resource is registered under this path' });
  return reply
    .code(200)
    .header('cache-control', 'public, max-age=300')
    .type('application/json')
    .send({ bearer_methods_supported: ['header'], ...resource, authorization_servers: [providers(request).issuer] });
}

/** RFC 8414's document is OpenID discovery's: the provider answers it under its own path. */
async function authorizationServer(providers: IdpProviders, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { provider } = providers(request);
  reply.hijack();
  request.raw.url = '/.well-known/openid-configuration';
  await provider.callback()(request.raw, reply.raw);
}

export async function wellKnownRoutes(app: FastifyInstance, deps: Deps, providers: IdpProviders): Promise<void> {
  const hasResources = (d: Deps) => d.config.idp.dynamicClients.protectedResources.length > 0;
  await mountEndpoints(app, deps, null, [
    customEndpoint({ method: ['GET', 'HEAD', 'OPTIONS'], path: AS, hide: true, handler: () => (request, reply) => authorizationServer(providers, request, reply) }),
    ...[PRM, `${PRM}/*`].map((path) =>
      customEndpoint({ method: ['GET', 'HEAD'], path, hide: true, when: hasResources, handler: (deps) => (request, reply) => protectedResource(deps, providers, request, reply) }),
    ),
  ]);
}
