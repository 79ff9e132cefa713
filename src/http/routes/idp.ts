import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { Deps } from '../../flows/context.js';
import { buildProvider, IDP_PATHS, PROVIDER_PATHS } from '../../idp/provider.js';
import { requestAuth } from '../../idp/client-metadata.js';
import { DEVICE_USER_CODE } from '../../idp/rate-limit.js';
import { consentPageUrl, decideLogin, loginPageUrl } from '../../idp/interactions.js';
import { consentPage, errorPage, PAGE_CSP } from '../../idp/pages.js';
import { grantConsent, scopesAsked } from '../../idp/consent.js';
import { findLiveSession } from '../../store/sessions.js';
import { findIdpClient } from '../../store/idp-clients.js';
import { constantTimeEqual, hashSecret, hmac } from '../../security/secrets.js';
import { DIGEST_REF } from '../../idp/adapter.js';
import { secretRing } from '../../security/signing.js';
import { recordEvent } from '../../audit/recorder.js';
import { endSession } from '../../flows/session-ops.js';
import { userAgentOf } from '../client-auth.js';

// The OpenID provider under the reference's paths (IDP_OIDC_ENABLED).
//
// oidc-provider is a Koa application: its routes get the raw request and
// response, their bodies unparsed (it parses and limits them itself) and no
// CSRF check (the token endpoints authenticate clients; its forms carry
// their own token). Its OAuth errors keep OAuth's JSON form, which is what
// relying parties read. The interaction pages (login hand-over, consent)
// are ours.

const PAGE_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export type IdpProviders = (request: FastifyRequest) => { provider: any; issuer: string };

/** One provider per issuer: unset, the issuer is the origin of the request, as in the reference. */
export function idpProviders(deps: Deps): IdpProviders {
  const byIssuer = new Map<string, any>();
  return (request: FastifyRequest) => {
    const issuer = deps.config.idp.issuer ?? `${request.protocol}://${request.host}`;
    let provider = byIssuer.get(issuer);
    if (!provider) {
      // A bounded set: a client inventing Host headers cannot grow it.
      if (byIssuer.size >= 16) byIssuer.delete(byIssuer.keys().next().value!);
      provider = buildProvider(
        {
          config: deps.config,
          db: deps.db,
          atRest: deps.atRest,
          now: () => deps.clock.now(),
          logError: (error, message) => deps.log.error({ err: error }, message),
          endBrowserSession: async (key, ip, userAgent) => {
            const now = deps.clock.now();
            const found = await findLiveSession(deps.db, key, now);
            if (found) await endSession(deps, { client: 'browser', ip, userAgent, now, session: found.session, user: found.user });
          },
          audit: async (event) => {
            const detail = { ...(event.clientId ? { client_id: event.clientId } : {}), ...(event.grantType ? { grant_type: event.grantType } : {}), ...(event.tokenType ? { token_type: event.tokenType } : {}) };
            await recordEvent(deps, deps.db, { ip: event.ip, userAgent: event.userAgent, now: deps.clock.now() }, event.type, { userId: event.userId, detail }).catch((error: unknown) =>
              deps.log.error({ err: error, event: event.type }, 'recording an OpenID provider event failed'),
            );
          },
        },
        issuer,
      );
      byIssuer.set(issuer, provider);
    }
    return { provider, issuer };
  };
}

export async function idpRoutes(app: FastifyInstance, deps: Deps, providers: IdpProviders | null): Promise<void> {
  if (!providers) return;
  const providerFor = providers;
  const ring = secretRing(deps.config);
  const consentToken = (uid: string) => hmac(ring[0]!, `idp-consent:${uid}`);

  /** Hands the raw request to the provider. */
  async function passThrough(request: FastifyRequest, reply: FastifyReply, byDigest = false): Promise<void> {
    const { provider } = providerFor(request);
    await withDefaultScopes(request);
    // Each user code tried on the device page counts against IDP_OIDC_RATE_LIMITS.device_user_code.
    if (request.method === 'POST' && request.routeOptions.url === IDP_PATHS.code_verification && deps.idpLimiter) {
      const verdict = await deps.idpLimiter.consume(DEVICE_USER_CODE, { ip: request.ip });
      if (!verdict.ok) {
        return reply.code(429).headers({ ...PAGE_HEADERS, 'retry-after': String(verdict.retryAfterSeconds) }).type('text/html; charset=utf-8').send(errorPage('Too many attempts', 'Too many codes were tried from here. Wait a minute and try again.'));
      }
    }
    reply.hijack();
    for (const [name, value] of Object.entries(PAGE_HEADERS)) reply.raw.setHeader(name, value);
    const basic = /^basic /i.test(request.headers.authorization ?? '');
    await requestAuth.run({ basic, byDigest }, () => provider.callback()(request.raw, reply.raw));
  }

  /**
   * Introspection and revocation of JWT access tokens: oidc-provider refuses
   * any JWT there (it takes them for its own stateless ones), while ours are
   * stored like opaque tokens. The body is read here and a JWT token is
   * handed on as the digest it is stored under (adapter.ts, DIGEST_REF); the
   * provider reads the body from `req.body` then.
   */
  async function jwtTokenEndpoint(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const params = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const token = params.get('token');
    const jwt = token !== null && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
    if (jwt) params.set('token', DIGEST_REF + hashSecret(token));
    (request.raw as typeof request.raw & { body?: string }).body = params.toString();
    await passThrough(request, reply, jwt);
  }

  /** The reference's default scopes: an authorization request without `scope` asks for the client's defaults. */
  async function withDefaultScopes(request: FastifyRequest): Promise<void> {
    if (request.method !== 'GET' || request.routeOptions.url !== IDP_PATHS.authorization) return;
    const url = new URL(request.raw.url ?? '/', 'http://x');
    const clientId = url.searchParams.get('client_id');
    if (url.searchParams.has('scope') || !clientId) return;
    const client = await findIdpClient(deps.db, clientId);
    if (!client?.defaultScopes.length) return;
    url.searchParams.set('scope', client.defaultScopes.join(' '));
    request.raw.url = url.pathname + url.search;
  }

  const jwtTokens = deps.config.idp.accessTokenFormat === 'jwt';
  const readsBody: string[] = jwtTokens ? [IDP_PATHS.introspection, IDP_PATHS.revocation] : [];
  if (jwtTokens) {
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      for (const url of readsBody) scope.route({ method: ['POST', 'OPTIONS'], url, schema: { hide: true }, handler: jwtTokenEndpoint });
    });
  }

  await app.register(async (scope) => {
    // Bodies stay in the stream for the provider.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    for (const path of PROVIDER_PATHS.filter((p) => !readsBody.includes(p))) {
      for (const url of [path, `${path}/*`]) {
        scope.route({ method: ['GET', 'POST', 'OPTIONS', 'HEAD'], url, schema: { hide: true }, handler: passThrough });
      }
    }
  });

  await app.register(async (scope) => {
    await scope.register(cookie);
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    function html(reply: FastifyReply, status: number, body: string) {
      return reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);
    }

    /** The interaction the provider started, or an error page when its cookie is gone (expired, another browser). */
    async function details(request: FastifyRequest, reply: FastifyReply, provider: any): Promise<any | null> {
      try {
        const found = await provider.interactionDetails(request.raw, reply.raw);
        if (found.uid !== (request.params as { uid: string }).uid) throw new Error('uid mismatch');
        return found;
      } catch {
        await html(reply, 400, errorPage('Sign-in expired', 'This sign-in request has expired or belongs to another browser. Go back to the application and start again.'));
        return null;
      }
    }

    async function finish(request: FastifyRequest, reply: FastifyReply, provider: any, result: unknown, merge: boolean): Promise<void> {
      reply.hijack();
      await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
    }

    scope.get<{ Params: { uid: string } }>(`${IDP_PATHS.interaction}/:uid`, { schema: { hide: true } }, async (request, reply) => {
      const { provider, issuer } = providerFor(request);
      const interaction = await details(request, reply, provider);
      if (!interaction) return reply;
      const { prompt, params } = interaction;
      const now = deps.clock.now();
      if (prompt.name === 'login') {
        const key = request.cookies[deps.config.session.cookieName];
        const found = key ? await findLiveSession(deps.db, key, now) : null;
        const decision = decideLogin(found, { reasons: prompt.reasons, requestedAt: interaction.iat ?? interaction.lastSubmission?.iat ?? 0, maxAge: params.max_age === undefined ? undefined : Number(params.max_age) }, now);
        if (decision.kind === 'login_page') return reply.redirect(loginPageUrl(deps.config, `${issuer}${IDP_PATHS.interaction}/${interaction.uid}`), 303);
        await finish(request, reply, provider, { login: decision.result }, false);
        return reply;
      }
      if (prompt.name === 'consent') {
        const external = consentPageUrl(deps.config, interaction.uid);
        if (external) return reply.redirect(external, 303);
        const client = await provider.Client.find(params.client_id);
        const scopes = scopesAsked(interaction);
        return html(
          reply,
          200,
          consentPage({ siteName: deps.config.siteName, clientName: client?.clientName ?? params.client_id, scopes, action: `${IDP_PATHS.interaction}/${interaction.uid}/consent`, csrf: consentToken(interaction.uid) }),
        );
      }
      return html(reply, 400, errorPage('Sign-in failed', 'The request asked for something this server cannot do.'));
    });

    scope.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(`${IDP_PATHS.interaction}/:uid/consent`, { schema: { hide: true } }, async (request, reply) => {
      const { provider } = providerFor(request);
      const interaction = await details(request, reply, provider);
      if (!interaction) return reply;
      const body = request.body ?? {};
      if (interaction.prompt.name !== 'consent' || typeof body.csrf !== 'string' || !constantTimeEqual(body.csrf, consentToken(interaction.uid))) {
        return html(reply, 403, errorPage('Sign-in failed', 'The form could not be verified. Go back to the application and start again.'));
      }
      const accountId = interaction.session?.accountId as string;
      const source = { ip: request.ip, userAgent: userAgentOf(request), now: deps.clock.now() };
      const detail = { client_id: String(interaction.params.client_id) };
      if (body.decision !== 'allow') {
        await recordEvent(deps, deps.db, source, 'idp.consent_denied', { userId: Number(accountId), detail });
        await finish(request, reply, provider, { error: 'access_denied', error_description: 'The user denied the request.' }, true);
        return reply;
      }
      const grantId = await grantConsent(provider, interaction);
      await recordEvent(deps, deps.db, source, 'idp.consent_granted', { userId: Number(accountId), detail: { ...detail, scopes: interaction.prompt.details.missingOIDCScope ?? [] } });
      await finish(request, reply, provider, { consent: { grantId } }, true);
      return reply;
    });
  });
}
