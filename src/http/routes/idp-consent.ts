import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { answerConsent, pendingConsent } from '../../idp/consent.js';
import { recordEvent } from '../../audit/recorder.js';
import { send } from '../render.js';
import { authRef } from '../schemas.js';
import { userAgentOf } from '../client-auth.js';
import type { IdpProviders } from './idp.js';

// The OpenID provider's consent for a SPA that shows its own page
// (HEADLESS_FRONTEND_URLS.idp_oidc_consent, given `?uid=`): it reads what a
// client asks for and answers, logged in through this browser API (cookie
// and CSRF token), then sends the browser to `location`.

const Consent = Type.Object({
  status: Type.Integer(),
  data: Type.Object({
    uid: Type.String(),
    client: Type.Object({ id: Type.String(), name: Type.String() }),
    scopes: Type.Array(Type.String(), { description: 'The scopes to grant: openid, profile, email, phone, offline_access or the client\'s own.' }),
  }),
});
const Answer = Type.Object({ action: Type.Union([Type.Literal('allow'), Type.Literal('deny')]) });
const Answered = Type.Object({
  status: Type.Integer(),
  data: Type.Object({ location: Type.String({ description: 'Where the browser goes next (back to the provider, which redirects to the client).' }) }),
});
const Missing = Type.Object({ status: Type.Integer() }, { description: 'No consent of the logged-in user waits under this uid (expired, answered, or another user\'s).' });
const Params = Type.Object({ uid: Type.String({ maxLength: 64 }) });

export function idpConsentRoutes(scope: FastifyInstance, deps: Deps, providers: IdpProviders | null): void {
  if (!providers) return;
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/idp/oidc/consent/:uid',
    {
      schema: {
        tags: ['OpenID provider'],
        summary: 'Read a pending consent',
        description: 'The client and scopes an authorization request waits on the logged-in user to grant. 401 when not logged in, 404 when nothing waits under `uid`.',
        params: Params,
        response: { 200: Consent, 401: authRef, 404: Missing },
      },
    },
    async (request, reply) => {
      const user = request.auth.user;
      if (!user) return send(deps, request, reply, { kind: 'not_authenticated' });
      const found = await pendingConsent(providers(request).provider, request.params.uid, user.id);
      if (!found.ok) return send(deps, request, reply, { kind: 'not_found' });
      return reply.code(200).send({ status: 200, data: found.view });
    },
  );
  app.post(
    '/idp/oidc/consent/:uid',
    {
      schema: {
        tags: ['OpenID provider'],
        summary: 'Grant or deny a pending consent',
        description: 'Records the answer; the browser then navigates to `data.location` to finish the authorization (a code for the client, or access_denied). 401 when not logged in, 404 when nothing waits under `uid`, 403 `csrf_failed` without the CSRF header.',
        params: Params,
        body: Answer,
        response: { 200: Answered, 401: authRef, 404: Missing },
      },
    },
    async (request, reply) => {
      const user = request.auth.user;
      if (!user) return send(deps, request, reply, { kind: 'not_authenticated' });
      const { provider } = providers(request);
      const found = await pendingConsent(provider, request.params.uid, user.id);
      if (!found.ok) return send(deps, request, reply, { kind: 'not_found' });
      const allow = request.body.action === 'allow';
      const now = deps.clock.now();
      const location = await answerConsent(provider, found.interaction, allow, Math.floor(now / 1000));
      const detail = allow ? { client_id: found.view.client.id, scopes: found.view.scopes } : { client_id: found.view.client.id };
      await recordEvent(deps, deps.db, { ip: request.ip, userAgent: userAgentOf(request), now }, allow ? 'idp.consent_granted' : 'idp.consent_denied', { userId: user.id, detail });
      return reply.code(200).send({ status: 200, data: { location } });
    },
  );
}
