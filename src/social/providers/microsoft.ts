import type { JWTPayload } from 'jose';
import type { Identity, ProviderType } from '../provider-type.js';
import { stringOption } from '../app.js';
import { discoveredServer, wellKnownUrl } from '../kit/servers.js';
import { defaultClientAuth, idTokenCheck } from '../kit/discovery-provider.js';
import { authorizationUrl, exchangeCode, isOpenIdRequest, scopes } from '../kit/authorization.js';
import { bearerGetObject } from '../kit/api.js';
import { singleEmail, text, uidOf } from '../kit/claims.js';
import { accountDisplay } from '../kit/display.js';

// Microsoft (Entra ID, personal accounts): the endpoints of the app's tenant
// (`tenant`: common, organizations, consumers, or a tenant id), the user from
// Microsoft Graph's /me as in the reference (uid = Graph id; the address is
// not verified by Microsoft, so it counts as unverified). The token flow
// takes an ID token: for the multi-tenant endpoints the issuer names the
// user's own tenant, so it is checked against the token's `tid`.

const CONSUMERS_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const GRAPH_PROPERTIES = 'businessPhones,displayName,givenName,id,jobTitle,mail,mobilePhone,officeLocation,preferredLanguage,surname,userPrincipalName,mailNickname,companyName';

/** The issuer an ID token of `tid` must name: the discovered one, with the tenant filled in for multi-tenant apps. */
function tenantIssuer(discovered: string, claims: JWTPayload, tenant: string): string | null {
  if (!discovered.includes('{tenantid}')) return discovered;
  const tid = claims.tid;
  if (typeof tid !== 'string' || !TENANT_ID.test(tid)) return null;
  if (tenant === 'organizations' && tid.toLowerCase() === CONSUMERS_TENANT) return null;
  return discovered.replace('{tenantid}', tid);
}

function graphIdentity(me: Record<string, unknown>): Identity {
  return {
    uid: uidOf(me.id),
    extraData: me,
    emails: singleEmail(me.mail ?? me.userPrincipalName, false),
    username: text(me.mailNickname),
    firstName: text(me.givenName),
    lastName: text(me.surname),
    name: text(me.displayName),
  };
}

export const microsoft: ProviderType = {
  id: 'microsoft',
  name: 'Microsoft',
  flows: ['provider_redirect', 'provider_token'],
  options: {
    tenant: { kind: 'string' },
    login_url: { kind: 'url' },
    graph_url: { kind: 'url' },
  },
  create(context) {
    const { app } = context;
    const tenant = stringOption(app, 'tenant') ?? 'common';
    const login = stringOption(app, 'login_url') ?? 'https://login.microsoftonline.com';
    const graph = stringOption(app, 'graph_url') ?? 'https://graph.microsoft.com';
    const server = discoveredServer(context, wellKnownUrl(`${login}/${encodeURIComponent(tenant)}/v2.0`), defaultClientAuth(context));
    const checkIdToken = idTokenCheck(context, server, { issuers: (discovered, claims) => tenantIssuer(discovered, claims, tenant) });
    const scope = scopes(context, ['User.Read']);
    return {
      app,
      // The user comes from Graph; an ID token (and so a nonce) only when the app's scopes ask for one.
      usesNonce: isOpenIdRequest(scope),
      async authorizationUrl(request) {
        return authorizationUrl(await server(), context, request, { scope });
      },
      async completeRedirect(input) {
        const config = await server();
        const { tokens } = await exchangeCode(config, context, input);
        const me = await bearerGetObject(config, tokens.accessToken, `${graph}/v1.0/me?$select=${GRAPH_PROPERTIES}`);
        return { identity: graphIdentity(me), tokens };
      },
      async verifyToken(token) {
        if (!token.idToken) return null;
        const verified = await checkIdToken(token.idToken);
        if (!verified) return null;
        const { claims } = verified;
        // `oid` is the user's object id, which is Graph's id for work and school accounts.
        const identity: Identity = {
          uid: uidOf(claims.oid ?? claims.sub),
          extraData: claims,
          emails: singleEmail(claims.email, false),
          username: text(claims.preferred_username),
          name: text(claims.name),
        };
        return { identity, tokens: null, tokenUse: verified.tokenUse };
      },
      display: (extraData) => accountDisplay(extraData, app.name),
    };
  },
};
