import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { startProviderRedirect, STATE_LIFETIME_MS } from '../../flows/social/redirect.js';
import { completeProviderCallback, keepPostedUser } from '../../flows/social/callback.js';
import { randomKey } from '../../security/secrets.js';
import { oidcCallbackPath } from '../../social/apps.js';
import { providerType } from '../../social/providers/index.js';
import { registerClientAuth, requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { SOCIAL_CALLBACK } from '../outcome-metrics.js';

// The redirect flow is a browser navigation, not an API call: a plain HTML
// form post starts it, the provider sends the browser back to a callback at
// the reference's path, and every answer is a 302. The browser that started a
// flow is recognised at the callback by a cookie of its own (HttpOnly, sent
// only to /accounts/), so that a state cannot be completed in another browser.

const BINDING_COOKIE = 'socialaccount_binding';
const CALLBACK_PREFIX = '/accounts/';

const Redirected = Type.Null({ description: '302: the browser goes on (see the Location header).' });

const RedirectBody = Type.Object({
  provider: Type.Optional(Type.String({ description: 'The provider id (see /config).' })),
  callback_url: Type.Optional(Type.String({ description: 'Where the browser returns after the provider: a path here, or a URL on this host or the frontend\'s.' })),
  process: Type.Optional(Type.String({ description: '`login`, or `connect` (to the logged-in account).' })),
  csrfmiddlewaretoken: Type.Optional(Type.String({ description: 'The csrftoken cookie\'s value (or send X-CSRFToken).' })),
});

/** Form posts, for the routes of this file only; the rest of the API takes JSON alone. */
function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

function bindingOf(request: FastifyRequest): string | undefined {
  return request.cookies[BINDING_COOKIE] || undefined;
}

/** POST /auth/provider/redirect, browser client only (apps, which have no cookies, use the token flow). */
export async function socialRedirectRoute(scope: FastifyInstance, deps: Deps): Promise<void> {
  if (!deps.config.social.enabled) return;
  await scope.register(async (plugin) => {
    acceptForms(plugin);
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/auth/provider/redirect',
      {
        config: { csrf: 'form' },
        schema: {
          tags: ['Authentication: Providers'],
          summary: 'Log in (or connect) through the provider\'s pages',
          description:
            'A plain HTML form post (application/x-www-form-urlencoded) that navigates the browser: 302 to the provider, with a single-use state bound to this browser, a PKCE S256 challenge (unless the app sets `oauth_pkce_enabled: false`) and, to OpenID Connect providers, a nonce the ID token must carry back. After the provider, the browser lands on `callback_url` (then GET /auth/session tells what is next), with `?error=...&error_process=...` when the login failed: `cancelled` (declined at the provider), `unknown`, `connected_other`, `signup_closed`, `permission_denied` (connect while logged out), `rate_limited`. An unknown provider, a bad process or an unsafe callback_url send it to HEADLESS_FRONTEND_URLS.socialaccount_login_error with `?error=unknown&error_process=login`. CSRF: the `csrfmiddlewaretoken` field (or X-CSRFToken), else 403 `csrf_failed`.',
          consumes: ['application/x-www-form-urlencoded'],
          body: RedirectBody,
          response: { 302: Redirected },
        },
      },
      async (request, reply) => {
        const binding = bindingOf(request) ?? randomKey();
        const outcome = await startProviderRedirect(deps, requestContext(request, deps), request.body ?? {}, {
          binding,
          origin: `${request.protocol}://${request.host}`,
          host: request.host,
        });
        setBinding(reply, deps, binding);
        return send(deps, request, reply, outcome);
      },
    );
  });
}

function setBinding(reply: FastifyReply, deps: Deps, binding: string): void {
  const { session } = deps.config;
  reply.setCookie(BINDING_COOKIE, binding, {
    path: CALLBACK_PREFIX,
    httpOnly: true,
    // Lax: sent on the provider's top-level GET back to us, not on cross-site posts.
    sameSite: 'lax',
    secure: session.cookieSecure,
    maxAge: STATE_LIFETIME_MS / 1000,
  });
}

/** The callbacks, outside the client prefixes, at the reference's paths; they act for the browser client. */
export async function socialCallbackRoutes(root: FastifyInstance, deps: Deps): Promise<void> {
  const { social, clients } = deps.config;
  // Only the browser client has the redirect flow that leads here.
  if (!social.enabled || social.apps.length === 0 || !clients.includes('browser')) return;
  await root.register(async (scope) => {
    await scope.register(cookie);
    registerClientAuth(scope, deps, 'browser');
    acceptForms(scope);
    const tags = ['Provider callbacks'];
    const description =
      'Where the provider sends the browser back: the path to register as redirect URI at the provider. Redeems the state (once, in the browser that started the flow), exchanges the code and answers 302 to the callback_url of the redirect flow.';
    const handle = (route: { type: string; providerId?: string }) => async (request: FastifyRequest, reply: FastifyReply) =>
      send(
        deps,
        request,
        reply,
        await completeProviderCallback(deps, requestContext(request, deps), { route, params: callbackParams(request), binding: bindingOf(request) }),
      );

    if (social.apps.some((app) => app.type === 'openid_connect')) {
      scope.get<{ Params: { providerId: string } }>(
        oidcCallbackPath(social.openIdConnectUrlPrefix, ':providerId'),
        { config: { counted: SOCIAL_CALLBACK }, schema: { tags, summary: 'OpenID Connect callback', description, response: { 302: Redirected } } },
        (request, reply) => handle({ type: 'openid_connect', providerId: request.params.providerId })(request, reply),
      );
    }
    for (const type of new Set(social.apps.map((app) => app.type).filter((type) => type !== 'openid_connect'))) {
      const path = `${CALLBACK_PREFIX}${type}/login/callback/`;
      if (!providerType(type)!.formPost) {
        scope.get(path, { config: { counted: SOCIAL_CALLBACK }, schema: { tags, summary: `${providerType(type)!.name} callback`, description, response: { 302: Redirected } } }, handle({ type }));
        continue;
      }
      // form_post: the first leg is a cross-site POST without our cookies; the second a same-site GET with them.
      scope.post(
        path,
        {
          config: { csrf: 'none' },
          schema: {
            tags,
            summary: `${providerType(type)!.name} callback (form_post)`,
            description: 'The provider posts its answer here (response_mode=form_post), cross-site, so without the browser\'s cookies: the answer is kept with the state and the browser is sent on to the second leg at `finish/`.',
            consumes: ['application/x-www-form-urlencoded'],
            body: Type.Record(Type.String(), Type.String()),
            response: { 302: Redirected },
          },
        },
        async (request, reply) => {
          const params = new URLSearchParams(request.body as Record<string, string>);
          await keepPostedUser(deps, requestContext(request, deps), params);
          const onward = new URLSearchParams();
          for (const name of ['code', 'state', 'error']) if (params.get(name)) onward.set(name, params.get(name)!);
          return reply.redirect(`${path}finish/?${onward}`, 302);
        },
      );
      scope.get(`${path}finish/`, { config: { counted: SOCIAL_CALLBACK }, schema: { tags, summary: `${providerType(type)!.name} callback, second leg`, description, response: { 302: Redirected } } }, handle({ type }));
    }
  });
}

/** The query exactly as sent (repeated names included), not as a parsed object. */
function callbackParams(request: FastifyRequest): URLSearchParams {
  const query = request.url.indexOf('?');
  return new URLSearchParams(query < 0 ? '' : request.url.slice(query + 1));
}
