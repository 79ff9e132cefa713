import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import { ACS_POST_LIFETIME_MS, finishAcs, keepAcsPost, samlAuthnForm, samlMetadata, samlProviderOf } from '../../../flows/social/saml-acs.js';
import { loginErrorUrl } from '../../../flows/social/navigation.js';
import { singleLogout } from '../../../flows/social/saml-logout.js';
import { requestContext } from '../../client-auth.js';
import { send } from '../../render.js';
import { customEndpoint, type Endpoint } from '../../endpoint.js';
import { errorRef } from '../../schemas.js';
import { SOCIAL_LOGIN } from './endpoints.js';
import { SAML_POST_PAGE_HEADERS, samlPostPage } from './saml-post-page.js';

// SAML's endpoints at the reference's paths, /accounts/saml/<organization>/:
// acs/ (the IdP's cross-site POST), acs/finish/ (the browser's same-site
// second leg, which checks the answer), sls/ (single logout), login/ (to
// the SPA's login page), metadata/ (what to give the IdP); and sso/, ours,
// the page that posts an AuthnRequest to an IdP taking the HTTP-POST binding.

const ACS_COOKIE = 'saml_acs';
const PREFIX = '/accounts/saml/:organization';
const tags = ['SAML'];
const Redirected = Type.Null({ description: '302: the browser goes on (see the Location header).' });

const organizationOf = (request: FastifyRequest) => (request.params as { organization: string }).organization;
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

function setAcsCookie(reply: FastifyReply, deps: Deps, value: string, maxAgeMs: number): void {
  reply.setCookie(ACS_COOKIE, value, {
    path: '/accounts/saml/',
    httpOnly: true,
    // Lax: a cookie set by a cross-site top-level POST's answer is kept, and sent on the same-site GET that follows.
    sameSite: 'lax',
    secure: deps.config.session.cookieSecure,
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

/** The SAML endpoints; `binding` reads the redirect flow's binding cookie. */
export function samlEndpoints(binding: (request: FastifyRequest) => string | undefined): Endpoint[] {
  return [
    customEndpoint({
      method: 'POST',
      path: `${PREFIX}/acs/`,
      tags,
      summary: 'SAML assertion consumer service',
      description:
        'The IdP posts its answer here (HTTP-POST binding: `SAMLResponse`, `RelayState`), cross-site, so without the browser\'s cookies: the answer is kept for a few minutes under a handle the browser gets in an HttpOnly cookie, and the browser is sent on to `acs/finish/`, where it is checked. An unknown organization or an empty answer goes to HEADLESS_FRONTEND_URLS.socialaccount_login_error.',
      consumes: ['application/x-www-form-urlencoded'],
      body: Type.Record(Type.String(), Type.String()),
      response: { 302: Redirected },
      config: { csrf: 'none' },
      handler: (deps) => async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, string>;
        const organization = organizationOf(request);
        const handle = await keepAcsPost(deps, requestContext(request, deps), { organization, samlResponse: body.SAMLResponse, relayState: body.RelayState });
        if (!handle) return reply.redirect(loginErrorUrl(deps.config, 'login'), 302);
        setAcsCookie(reply, deps, handle, ACS_POST_LIFETIME_MS);
        return reply.redirect(`/accounts/saml/${encodeURIComponent(organization)}/acs/finish/`, 302);
      },
    }),
    customEndpoint({
      method: 'GET',
      path: `${PREFIX}/acs/finish/`,
      tags,
      summary: 'SAML assertion consumer service, second leg',
      description:
        'Checks the kept answer completely (signature on the response or the assertion as `advanced` requires, issuer, audience, Destination, Recipient, the time window with a 60 s skew, one use per assertion id, InResponseTo bound to this browser\'s redirect flow; comments and SHA-1 refused) and then logs in as any provider does: 302 to the flow\'s callback_url (with `?error=` as the redirect flow documents), or, for a refused answer, to HEADLESS_FRONTEND_URLS.socialaccount_login_error with `?error=unknown&error_process=login`. IdP-initiated answers are refused unless the app sets `advanced.reject_idp_initiated_sso: false`; a safe RelayState is then where the browser lands.',
      response: { 302: Redirected },
      counts: SOCIAL_LOGIN,
      handler: (deps) => async (request, reply) => {
        const handle = request.cookies[ACS_COOKIE] || undefined;
        if (handle) setAcsCookie(reply, deps, '', 0);
        const outcome = await finishAcs(deps, requestContext(request, deps), {
          organization: organizationOf(request),
          handle,
          binding: binding(request),
          origin: originOf(request),
          host: request.host,
        });
        return send(deps, request, reply, outcome);
      },
    }),
    customEndpoint({
      method: 'GET',
      path: `${PREFIX}/sls/`,
      tags,
      summary: 'SAML single logout service',
      description:
        'The IdP\'s logout messages, HTTP-Redirect binding (a signature is checked when present, and required with `advanced.want_message_signed`): a LogoutRequest ends this browser\'s session and sends the browser back to the IdP\'s SLO URL with a LogoutResponse (signed when the app has a key and signs its messages: `authn_request_signed`, `logout_request_signed` or `logout_response_signed`); a LogoutResponse (status Success, from the IdP) must answer a LogoutRequest of ours (a logout through the API, see `meta.logout_redirect_url`), once, within 10 minutes, and sends the browser to the frontend\'s root. 400 `invalid` for a message that does not verify or answers no request of ours (the log says why) or an unknown organization.',
      response: { 302: Redirected, 400: errorRef },
      handler: (deps) => async (request, reply) => {
        const at = request.url.indexOf('?');
        const outcome = await singleLogout(deps, requestContext(request, deps), {
          organization: organizationOf(request),
          query: Object.fromEntries(new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1))),
          rawQuery: at < 0 ? '' : request.url.slice(at + 1),
          origin: originOf(request),
        });
        return send(deps, request, reply, outcome);
      },
    }),
    customEndpoint({
      method: 'GET',
      path: `${PREFIX}/sso/`,
      tags,
      summary: 'SAML AuthnRequest by HTTP-POST',
      description:
        'Where the redirect flow sends the browser when the IdP takes the AuthnRequest by HTTP-POST (`idp.sso_binding`, or metadata that offers only that binding): 200 with a page whose form posts the signed (when `authn_request_signed`) AuthnRequest of the flow named by `state` to the IdP\'s SSO URL, submitted by its one script. An unknown organization, a malformed state, an app whose IdP takes the redirect binding or an IdP out of reach go to socialaccount_login_error.',
      querystring: Type.Object({ state: Type.Optional(Type.String()) }),
      response: { 302: Redirected },
      handler: (deps) => async (request, reply) => {
        const form = await samlAuthnForm(deps, organizationOf(request), (request.query as { state?: string }).state, originOf(request));
        if (!form) return reply.redirect(loginErrorUrl(deps.config, 'login'), 302);
        return reply.code(200).headers(SAML_POST_PAGE_HEADERS).type('text/html; charset=utf-8').send(samlPostPage(deps, form, request.headers['accept-language']));
      },
    }),
    customEndpoint({
      method: 'GET',
      path: `${PREFIX}/login/`,
      tags,
      summary: 'SAML login page',
      description:
        'The reference\'s login URL of an organization, where IdP portals\' tiles may point: 302 to the SPA\'s login page (HEADLESS_FRONTEND_URLS.account_login), whose provider button starts the login; a GET never starts one itself, so that no other site can log a browser in. An unknown organization goes to socialaccount_login_error.',
      response: { 302: Redirected },
      handler: (deps) => async (request, reply) =>
        reply.redirect(samlProviderOf(deps, organizationOf(request)) ? deps.config.frontendUrls.account_login : loginErrorUrl(deps.config, 'login'), 302),
    }),
    customEndpoint({
      method: 'GET',
      path: `${PREFIX}/metadata/`,
      tags,
      summary: 'SAML service provider metadata',
      description:
        'The SP\'s metadata for the IdP (text/xml): its entity id (`sp.entity_id`, else this URL), the ACS (HTTP-POST), the SLS (HTTP-Redirect), the `organization` and `contact_person` when set, and, when `advanced` gives a key, its certificate (for signing, and for encryption when `want_assertion_encrypted`); signed when `metadata_signed`. 404 for an unknown organization.',
      handler: (deps) => async (request, reply) => {
        const metadata = await samlMetadata(deps, organizationOf(request), originOf(request));
        if (metadata === null) return reply.callNotFound();
        return reply.type('text/xml; charset=utf-8').send(metadata);
      },
    }),
  ];
}
