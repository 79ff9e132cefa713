import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import { RedirectInput, startProviderRedirect, STATE_LIFETIME_MS } from '../../../flows/social/redirect.js';
import { completeProviderCallback, keepPostedUser } from '../../../flows/social/callback.js';
import { randomKey } from '../../../security/secrets.js';
import { oidcCallbackPath, typeCallbackPath } from '../../../social/apps.js';
import { RELAY_PAGE_HEADERS, relayPage } from './relay-page.js';
import { providerType } from '../../../social/providers/index.js';
import { registerClientAuth, requestContext } from '../../client-auth.js';
import { send } from '../../render.js';
import { acceptForms, customEndpoint, mountEndpoints, type Endpoint } from '../../endpoint.js';
import { SOCIAL_LOGIN } from './endpoints.js';
import { samlEndpoints } from './saml.js';

// The redirect flow is a browser navigation, not an API call: a plain HTML
// form post starts it, the provider sends the browser back to a callback at
// the reference's path, and every answer is a 302. The browser that started a
// flow is recognised at the callback by a cookie of its own (HttpOnly, sent
// only to /accounts/), so that a state cannot be completed in another browser.

const BINDING_COOKIE = 'socialaccount_binding';
const CALLBACK_PREFIX = '/accounts/';

const Redirected = Type.Null({ description: '302: the browser goes on (see the Location header).' });

function bindingOf(request: FastifyRequest): string | undefined {
  return request.cookies[BINDING_COOKIE] || undefined;
}

/** POST /auth/provider/redirect, browser client only (apps, which have no cookies, use the token flow). */
export const redirect = customEndpoint({
  method: 'POST',
  path: '/auth/provider/redirect',
  when: ({ config }, client) => client === 'browser' && config.social.enabled,
  tags: ['Authentication: Providers'],
  summary: 'Log in (or connect) through the provider\'s pages',
  description:
    'A plain HTML form post (application/x-www-form-urlencoded) that navigates the browser: 302 to the provider, with a single-use state bound to this browser, a PKCE S256 challenge (unless the app sets `oauth_pkce_enabled: false`) and, to OpenID Connect providers, a nonce the ID token must carry back. After the provider, the browser lands on `callback_url` (then GET /auth/session tells what is next), with `?error=...&error_process=...` when the login failed: `cancelled` (declined at the provider), `unknown`, `connected_other`, `signup_closed`, `permission_denied` (connect while logged out), `rate_limited`. An unknown provider, a bad process or an unsafe callback_url send it to HEADLESS_FRONTEND_URLS.socialaccount_login_error with `?error=unknown&error_process=login`. CSRF: the `csrfmiddlewaretoken` field (or X-CSRFToken), else 403 `csrf_failed`.',
  consumes: ['application/x-www-form-urlencoded'],
  body: RedirectInput,
  response: { 302: Redirected },
  config: { csrf: 'form' },
  forms: true,
  // Not a flow endpoint: the browser's binding cookie is set here, and the flow needs the origin the browser reached.
  handler: (deps) => async (request, reply) => {
    const binding = bindingOf(request) ?? randomKey();
    const outcome = await startProviderRedirect(deps, requestContext(request, deps), (request.body as RedirectInput | undefined) ?? {}, {
      binding,
      origin: `${request.protocol}://${request.host}`,
      host: request.host,
    });
    setBinding(reply, deps, binding);
    return send(deps, request, reply, outcome);
  },
});

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

function completeCallback(route: { type: string; providerId?: string }, deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply) =>
    send(deps, request, reply, await completeProviderCallback(deps, requestContext(request, deps), { route, params: callbackParams(request), binding: bindingOf(request) }));
}

/** The callback routes of the configured provider types, at the reference's paths. */
function callbackEndpoints(deps: Deps): Endpoint[] {
  const { social } = deps.config;
  const tags = ['Provider callbacks'];
  const description =
    'Where the provider sends the browser back: the path to register as redirect URI at the provider. Redeems the state (once, in the browser that started the flow), exchanges the code and answers 302 to the callback_url of the redirect flow.';
  const endpoints: Endpoint[] = [];
  if (social.apps.some((app) => app.type === 'openid_connect')) {
    endpoints.push(
      customEndpoint({
        method: 'GET',
        path: oidcCallbackPath(social.openIdConnectUrlPrefix, ':providerId'),
        tags,
        summary: 'OpenID Connect callback',
        description,
        response: { 302: Redirected },
        counts: SOCIAL_LOGIN,
        handler: (deps) => (request, reply) =>
          completeCallback({ type: 'openid_connect', providerId: (request.params as { providerId: string }).providerId }, deps)(request, reply),
      }),
    );
  }
  // SAML answers at its organizations' ACS, not at a callback.
  if (social.apps.some((app) => app.type === 'saml')) endpoints.push(...samlEndpoints(bindingOf));
  for (const type of new Set(social.apps.map((app) => app.type).filter((type) => type !== 'openid_connect' && type !== 'saml'))) {
    const path = typeCallbackPath(type);
    const name = providerType(type)!.name;
    if (providerType(type)!.callback?.relayPage) {
      endpoints.push(...relayCallbackEndpoints(type, name, path, tags));
      continue;
    }
    if (!providerType(type)!.formPost) {
      endpoints.push(
        customEndpoint({ method: 'GET', path, tags, summary: `${name} callback`, description, response: { 302: Redirected }, counts: SOCIAL_LOGIN, handler: (deps) => completeCallback({ type }, deps) }),
      );
      continue;
    }
    // form_post: the first leg is a cross-site POST without our cookies; the second a same-site GET with them.
    endpoints.push(
      customEndpoint({
        method: 'POST',
        path,
        tags,
        summary: `${name} callback (form_post)`,
        description: 'The provider posts its answer here (response_mode=form_post), cross-site, so without the browser\'s cookies: the answer is kept with the state and the browser is sent on to the second leg at `finish/`.',
        consumes: ['application/x-www-form-urlencoded'],
        body: Type.Record(Type.String(), Type.String()),
        response: { 302: Redirected },
        config: { csrf: 'none' },
        handler: (deps) => async (request, reply) => {
          const params = new URLSearchParams(request.body as Record<string, string>);
          await keepPostedUser(deps, requestContext(request, deps), params);
          const onward = new URLSearchParams();
          for (const name of ['code', 'state', 'error']) if (params.get(name)) onward.set(name, params.get(name)!);
          return reply.redirect(`${path}finish/?${onward}`, 302);
        },
      }),
      customEndpoint({
        method: 'GET',
        path: `${path}finish/`,
        tags,
        summary: `${name} callback, second leg`,
        description,
        response: { 302: Redirected },
        counts: SOCIAL_LOGIN,
        handler: (deps) => completeCallback({ type }, deps),
      }),
    );
  }
  return endpoints;
}

/**
 * A provider that answers in the URL fragment (Telegram): GET serves the
 * relay page, whose script posts the fragment's fields to the same URL; the
 * POST is same-site (from our own page), so it carries the binding cookie.
 */
function relayCallbackEndpoints(type: string, name: string, path: string, tags: string[]): Endpoint[] {
  return [
    customEndpoint({
      method: 'GET',
      path,
      tags,
      summary: `${name} callback (relay page)`,
      description: 'The provider sends the browser here with its answer in the URL fragment, which only the browser sees: this page posts it back to the same URL.',
      response: { 200: Type.String({ description: 'An HTML page whose one script posts the fragment.' }) },
      handler: (deps) => async (request, reply) => reply.code(200).headers(RELAY_PAGE_HEADERS).type('text/html; charset=utf-8').send(relayPage(deps, request.headers['accept-language'])),
    }),
    customEndpoint({
      method: 'POST',
      path,
      tags,
      summary: `${name} callback`,
      description: 'The relay page posts the provider\'s answer here; the state is in the query. Answers 302 to the callback_url of the redirect flow.',
      consumes: ['application/x-www-form-urlencoded'],
      body: Type.Record(Type.String(), Type.String()),
      response: { 302: Redirected },
      // The state, single use and bound to this browser's cookie, is what makes a forged post useless.
      config: { csrf: 'none' },
      counts: SOCIAL_LOGIN,
      handler: (deps) => async (request, reply) => {
        const params = callbackParams(request);
        for (const [field, value] of Object.entries((request.body as Record<string, string> | undefined) ?? {})) params.append(field, value);
        return send(deps, request, reply, await completeProviderCallback(deps, requestContext(request, deps), { route: { type }, params, binding: bindingOf(request) }));
      },
    }),
  ];
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
    await mountEndpoints(scope, deps, null, callbackEndpoints(deps));
  });
}

/** The query exactly as sent (repeated names included), not as a parsed object. */
function callbackParams(request: FastifyRequest): URLSearchParams {
  const query = request.url.indexOf('?');
  return new URLSearchParams(query < 0 ? '' : request.url.slice(query + 1));
}
