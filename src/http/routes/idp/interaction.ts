import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { Deps } from '../../../flows/context.js';
import { interactionLogin } from '../../../flows/idp/browser-session.js';
import { answerConsentPage } from '../../../flows/idp/consent.js';
import { IDP_PATHS } from '../../../idp/paths.js';
import { consentPageUrl, loginPageUrl } from '../../../idp/interactions.js';
import { requestedAt } from '../../../idp/interaction-time.js';
import { pagesOf } from '../../../idp/pages.js';
import { scopesAsked } from '../../../idp/consent.js';
import { constantTimeEqual, hmac } from '../../../security/secrets.js';
import { secretRing } from '../../../security/signing.js';
import { userAgentOf } from '../../client-auth.js';
import { acceptForms, customEndpoint, mountEndpoints, type Endpoint } from '../../endpoint.js';
import { sendErrorPage, sendPage } from './pages.js';
import type { IdpProviders } from './provider.js';

// The pages the provider hands its interactions to (/identity/o/interaction/<uid>):
// the login prompt, answered from the browser's session here or by the
// SPA's login page; consent, on the SPA's page when it has one
// (HEADLESS_FRONTEND_URLS.idp_oidc_consent, consent.ts) or on our own form.

/** The consent form's token: bound to the interaction, checked in constant time. */
const consentToken = (deps: Deps, uid: string) => hmac(secretRing(deps.config)[0]!, `idp-consent:${uid}`);

/** The interaction the provider started, or an error page when its cookie is gone (expired, another browser). */
async function details(deps: Deps, request: FastifyRequest, reply: FastifyReply, provider: any): Promise<any | null> {
  try {
    const found = await provider.interactionDetails(request.raw, reply.raw);
    if (found.uid !== (request.params as { uid: string }).uid) throw new Error('uid mismatch');
    return found;
  } catch {
    await sendErrorPage(deps, request, reply, 400, 'expired');
    return null;
  }
}

async function finish(request: FastifyRequest, reply: FastifyReply, provider: any, result: unknown, merge: boolean): Promise<void> {
  reply.hijack();
  await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
}

function interactionEndpoints(providers: IdpProviders): Endpoint[] {
  return [
    customEndpoint({
      method: 'GET',
      path: `${IDP_PATHS.interaction}/:uid`,
      hide: true,
      handler: (deps) => async (request, reply) => {
        const { provider, issuer } = providers(request);
        const interaction = await details(deps, request, reply, provider);
        if (!interaction) return reply;
        const { prompt, params } = interaction;
        if (prompt.name === 'login') {
          const decision = await interactionLogin(deps, request.cookies[deps.config.session.cookieName], {
            reasons: prompt.reasons,
            requestedAt: requestedAt(interaction),
            maxAge: params.max_age === undefined ? undefined : Number(params.max_age),
          });
          if (decision.kind === 'login_page') return reply.redirect(loginPageUrl(deps.config, `${issuer}${IDP_PATHS.interaction}/${interaction.uid}`), 303);
          await finish(request, reply, provider, { login: decision.result }, false);
          return reply;
        }
        if (prompt.name === 'consent') {
          const external = consentPageUrl(deps.config, interaction.uid);
          if (external) return reply.redirect(external, 303);
          const client = await provider.Client.find(params.client_id);
          const scopes = scopesAsked(interaction);
          const pages = pagesOf(deps);
          const language = request.headers['accept-language'];
          return sendPage(
            deps,
            reply,
            200,
            pages.render('authorization_form', language, {
              client: { name: client?.clientName ?? params.client_id, id: params.client_id },
              scopes: scopes.map((name) => ({ name, description: pages.scopeText(language, name) })),
              action: `${IDP_PATHS.interaction}/${interaction.uid}/consent`,
              csrf: consentToken(deps, interaction.uid),
            }),
          );
        }
        return sendErrorPage(deps, request, reply, 400, 'unsupported');
      },
    }),
    customEndpoint({
      method: 'POST',
      path: `${IDP_PATHS.interaction}/:uid/consent`,
      hide: true,
      handler: (deps) => async (request, reply) => {
        const { provider } = providers(request);
        const interaction = await details(deps, request, reply, provider);
        if (!interaction) return reply;
        const body = (request.body as Record<string, string> | undefined) ?? {};
        if (interaction.prompt.name !== 'consent' || typeof body.csrf !== 'string' || !constantTimeEqual(body.csrf, consentToken(deps, interaction.uid))) {
          return sendErrorPage(deps, request, reply, 403, 'form');
        }
        const source = { ip: request.ip, userAgent: userAgentOf(request), now: deps.clock.now() };
        await finish(request, reply, provider, await answerConsentPage(deps, source, provider, interaction, body.decision === 'allow'), true);
        return reply;
      },
    }),
  ];
}

/** The interaction pages, at the root: browser navigations with the session cookie, the consent form posted. */
export async function interactionRoutes(app: FastifyInstance, deps: Deps, providers: IdpProviders): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(cookie);
    acceptForms(scope);
    await mountEndpoints(scope, deps, null, interactionEndpoints(providers));
  });
}
