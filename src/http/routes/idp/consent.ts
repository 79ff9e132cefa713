import { Type } from 'typebox';
import { answerConsent, ConsentAnswer, readConsent } from '../../../flows/idp/consent.js';
import { endpoint, only, type Endpoint } from '../../endpoint.js';
import { authRef } from '../../schemas.js';
import type { IdpProviders } from './provider.js';

// flows/idp/consent.ts: the OpenID provider's consent for a SPA that shows
// its own page (HEADLESS_FRONTEND_URLS.idp_oidc_consent, given `?uid=`): it
// reads what a client asks for and answers, logged in through this browser
// API (cookie and CSRF token), then sends the browser to `location`.
// Browsers only: the provider's pages run in one.

const Consent = Type.Object({
  status: Type.Integer(),
  data: Type.Object({
    uid: Type.String(),
    client: Type.Object({ id: Type.String(), name: Type.String() }),
    scopes: Type.Array(Type.String(), { description: 'The scopes to grant: openid, profile, email, phone, offline_access or the client\'s own.' }),
  }),
});
const Answered = Type.Object({
  status: Type.Integer(),
  data: Type.Object({ location: Type.String({ description: 'Where the browser goes next (back to the provider, which redirects to the client).' }) }),
});
const Missing = Type.Object({ status: Type.Integer() }, { description: 'No consent of the logged-in user waits under this uid (expired, answered, or another user\'s).' });
const Params = Type.Object({ uid: Type.String({ maxLength: 64 }) });

export function consentEndpoints(providers: IdpProviders): Endpoint[] {
  return only((_deps, client) => client === 'browser', [
    endpoint({
      method: 'GET',
      path: '/idp/oidc/consent/:uid',
      tags: ['OpenID provider'],
      summary: 'Read a pending consent',
      description: 'The client and scopes an authorization request waits on the logged-in user to grant. 401 when not logged in, 404 when nothing waits under `uid`.',
      params: Params,
      response: { 200: Consent, 401: authRef, 404: Missing },
      run: (_deps, ctx, input) => readConsent(ctx, providers(input).provider, input.params.uid),
    }),
    endpoint({
      method: 'POST',
      path: '/idp/oidc/consent/:uid',
      tags: ['OpenID provider'],
      summary: 'Grant or deny a pending consent',
      description: 'Records the answer; the browser then navigates to `data.location` to finish the authorization (a code for the client, or access_denied). 401 when not logged in, 404 when nothing waits under `uid`, 403 `csrf_failed` without the CSRF header.',
      params: Params,
      body: ConsentAnswer,
      response: { 200: Answered, 401: authRef, 404: Missing },
      run: (deps, ctx, input) => answerConsent(deps, ctx, providers(input).provider, input.params.uid, input.body),
    }),
  ]);
}
