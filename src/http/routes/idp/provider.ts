import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../flows/context.js';
import { loadIdpProvider } from '../../../flows/idp/provider.js';
import { defaultScopesOf } from '../../../flows/idp/default-scopes.js';
import { IDP_PATHS, PROVIDER_PATHS } from '../../../idp/paths.js';
import { requestAuth } from '../../../idp/client-metadata.js';
import { DEVICE_USER_CODE } from '../../../idp/rate-limit.js';
import { DIGEST_REF } from '../../../idp/adapter.js';
import { requestIssuer } from '../../../idp/issuer.js';
import { serving } from '../../../idp/served-requests.js';
import { hashSecret } from '../../../security/secrets.js';
import { customEndpoint, mountEndpoints, type Endpoint } from '../../endpoint.js';
import { RequestRefused } from '../../errors.js';
import { pageHeaders, sendErrorPage } from './pages.js';
import { msg } from '../../../i18n/message.js';

// The OpenID provider under the reference's paths (IDP_OIDC_ENABLED).
//
// oidc-provider is a Koa application: its routes get the raw request and
// response, their bodies unparsed (it parses and limits them itself) and no
// CSRF check (the token endpoints authenticate clients; its forms carry
// their own token). Its OAuth errors keep OAuth's JSON form, which is what
// relying parties read. The interaction pages (login hand-over, consent)
// are ours (interaction.ts).

export type IdpProviders = (request: Pick<FastifyRequest, 'protocol' | 'host'>) => { provider: any; issuer: string };

/** One provider per issuer: unset, the issuer is the origin of the request, as in the reference (a host's only: issuer.ts). */
export async function idpProviders(deps: Deps): Promise<IdpProviders> {
  const idpProvider = await loadIdpProvider();
  const byIssuer = new Map<string, any>();
  return (request) => {
    const issuer = deps.config.idp.issuer ?? requestIssuer(request.protocol, request.host);
    if (issuer === null) throw new RequestRefused('host', msg('bad_request.host_unknown'));
    let provider = byIssuer.get(issuer);
    if (!provider) {
      // A bounded set: a client inventing Host headers cannot grow it.
      if (byIssuer.size >= 16) byIssuer.delete(byIssuer.keys().next().value!);
      provider = idpProvider(deps, issuer);
      byIssuer.set(issuer, provider);
    }
    return { provider, issuer };
  };
}

/** Koa's callback() composes the middleware anew on every call: once per provider. */
const handlers = new WeakMap<object, (req: FastifyRequest['raw'], res: FastifyReply['raw']) => Promise<void>>();
function handlerOf(provider: any): (req: FastifyRequest['raw'], res: FastifyReply['raw']) => Promise<void> {
  let handler = handlers.get(provider);
  if (!handler) handlers.set(provider, (handler = provider.callback()));
  return handler!;
}

/** Hands the raw request to the provider. */
async function passThrough(deps: Deps, providers: IdpProviders, request: FastifyRequest, reply: FastifyReply, byDigest = false): Promise<FastifyReply | void> {
  const { provider } = providers(request);
  await withDefaultScopes(deps, request);
  // Each user code tried on the device page counts against IDP_OIDC_RATE_LIMITS.device_user_code.
  if (request.method === 'POST' && request.routeOptions.url === IDP_PATHS.code_verification && deps.idpLimiter) {
    const verdict = await deps.idpLimiter.consume(DEVICE_USER_CODE, { ip: request.ip });
    if (!verdict.ok) return sendErrorPage(deps, request, reply.header('retry-after', String(verdict.retryAfterSeconds)), 429, 'rate_limited');
  }
  reply.hijack();
  for (const [name, value] of Object.entries(pageHeaders(deps))) reply.raw.setHeader(name, value);
  reply.raw.setHeader('x-request-id', request.id);
  // The provider logs its errors with the request's id, and limits by the address the trusted proxies give.
  serving(request.raw, { log: request.log, ip: request.ip });
  const basic = /^basic /i.test(request.headers.authorization ?? '');
  await requestAuth.run({ basic, byDigest }, () => handlerOf(provider)(request.raw, reply.raw));
}

/**
 * Introspection and revocation of JWT access tokens: oidc-provider refuses
 * any JWT there (it takes them for its own stateless ones), while ours are
 * stored like opaque tokens. The body is read here and a JWT token is
 * handed on as the digest it is stored under (adapter.ts, DIGEST_REF); the
 * provider reads the body from `req.body` then.
 */
async function jwtTokenEndpoint(deps: Deps, providers: IdpProviders, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
  const params = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
  const token = params.get('token');
  const jwt = token !== null && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
  if (jwt) params.set('token', DIGEST_REF + hashSecret(token));
  (request.raw as typeof request.raw & { body?: string }).body = params.toString();
  return passThrough(deps, providers, request, reply, jwt);
}

/** The reference's default scopes: an authorization request without `scope` asks for the client's defaults. */
async function withDefaultScopes(deps: Deps, request: FastifyRequest): Promise<void> {
  if (request.method !== 'GET' || request.routeOptions.url !== IDP_PATHS.authorization) return;
  const url = new URL(request.raw.url ?? '/', 'http://x');
  const clientId = url.searchParams.get('client_id');
  if (url.searchParams.has('scope') || !clientId) return;
  const scopes = await defaultScopesOf(deps, clientId);
  if (!scopes.length) return;
  url.searchParams.set('scope', scopes.join(' '));
  request.raw.url = url.pathname + url.search;
}

/** The provider's own routes, at the root: each answers by itself, on the raw request. */
export async function providerRoutes(app: FastifyInstance, deps: Deps, providers: IdpProviders): Promise<void> {
  const jwtTokens = deps.config.idp.accessTokenFormat === 'jwt';
  const readsBody: string[] = jwtTokens ? [IDP_PATHS.introspection, IDP_PATHS.revocation] : [];
  if (jwtTokens) {
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      const endpoints = readsBody.map((path) =>
        customEndpoint({ method: ['POST', 'OPTIONS'], path, hide: true, handler: (deps) => (request, reply) => jwtTokenEndpoint(deps, providers, request, reply) }),
      );
      await mountEndpoints(scope, deps, null, endpoints);
    });
  }

  await app.register(async (scope) => {
    // Bodies stay in the stream for the provider.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const endpoints: Endpoint[] = PROVIDER_PATHS.filter((p) => !readsBody.includes(p)).flatMap((path) =>
      [path, `${path}/*`].map((url) =>
        customEndpoint({ method: ['GET', 'POST', 'OPTIONS', 'HEAD'], path: url, hide: true, handler: (deps) => (request, reply) => passThrough(deps, providers, request, reply) }),
      ),
    );
    await mountEndpoints(scope, deps, null, endpoints);
  });
}
