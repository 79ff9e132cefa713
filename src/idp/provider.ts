import Provider from 'oidc-provider';
import type { Config } from '../config/config.js';
import type { Db } from '../store/db.js';
import type { AtRestCipher } from '../security/at-rest.js';
import { hmac } from '../security/secrets.js';
import { secretRing } from '../security/signing.js';
import { signingKey } from '../security/idp-signing-key.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { findAccount } from './account.js';
import { profileScopes } from './profile-claims.js';
import { createAdapterClass } from './adapter.js';
import { recordTokenEvents, type RecordProviderEvent } from './audit-events.js';
import { clientAuthentication } from './client-auth-methods.js';
import { throttleClientAuth } from './client-auth-throttle.js';
import { metadataDocumentLookup } from './client-id-metadata.js';
import { EXTRA_METADATA, type ClientExtras } from './client-metadata.js';
import { oneClientPerMetadata } from './client-objects.js';
import { applyClientRules } from './client-rules.js';
import { deviceFlowFeature, devicePolling } from './device-flow.js';
import { saveUnsavedDeviceSession } from './device-page-session.js';
import { discoveryAdditions } from './discovery.js';
import { recordInteractionTime } from './interaction-time.js';
import { introspectionFeature } from './introspection.js';
import { jwtAccessTokens } from './jwt-access-tokens.js';
import { loginPolicy } from './login-policy.js';
import { logoutFeature, logoutHandover, type EndBrowserSession } from './logout.js';
import { acceptLanguageOf, htmlBody, type Pages } from './pages.js';
import { PAR_DISCOVERY, parFeature } from './par.js';
import { IDP_PATHS } from './paths.js';
import { refreshExtendsGrant } from './refresh-lifetime.js';
import { accessTokenTtl, grantRequestedResourceScopes, resourceIndicatorsFeature, resourceServerInfo } from './resource-servers.js';
import { sessionIdsFromOurSessions } from './session-ids.js';
import { supportedScopes } from './supported-scopes.js';
import { keepExtraClaims, tokenExchange } from './token-exchange.js';
import { answerUnhandledErrors } from './unhandled-errors.js';
import { originAllowed } from './uris.js';

// panva's oidc-provider (OpenID Certified) configured as the reference's
// allauth.idp.oidc: its paths, its settings, its client model. Grants,
// tokens, device codes and sessions live in our database (adapter.ts);
// logging in is ours (interactions.ts): the provider hands over to
// /identity/o/interaction/<uid>, which finds the user in our own browser
// session or sends the browser to the SPA's login page. Each concern is a
// module of its own; this file puts them together.

export type { ProviderEvent } from './audit-events.js';

export interface ProviderDeps {
  config: Config;
  db: Db;
  atRest: AtRestCipher;
  now: () => number;
  /** Records an audit event of the provider's (token issued, revoked, a refresh token replayed). */
  audit: RecordProviderEvent;
  /** Where the provider's errors are logged when the request's own logger is not known (served-requests.ts). */
  logError(error: unknown, message: string): void;
  /** Ends the browser's session here (RP-initiated logout that logs out of the OP too). */
  endBrowserSession: EndBrowserSession;
  /** The provider's pages (templates under idp/oidc/). */
  pages: Pages;
  /** IDP_OIDC_RATE_LIMITS' limiter (client_auth_failed), when any limit is on. */
  limiter?: RateLimiter;
}

/** Builds the provider for one issuer. */
export function buildProvider(deps: ProviderDeps, issuer: string): any {
  const { config } = deps;
  const settings = config.idp;
  const { jwk, alg } = signingKey(settings.privateKeyPem!);
  const ring = secretRing(config);
  const clientAuth = clientAuthentication(config.production);

  let onClientScopes: (scopes: string[]) => void = () => undefined;
  const profile = profileScopes(config.profile);
  const accounts = findAccount(deps.db, config.profile);
  const provider = new Provider(issuer, {
    adapter: createAdapterClass({ db: deps.db, atRest: deps.atRest, now: deps.now, signingAlg: alg, issuer, onClientScopes: (clientScopes) => onClientScopes(clientScopes), metadataDocumentClient: metadataDocumentLookup(settings.dynamicClients, deps.now, deps.logError) }),
    clients: [],
    routes: Object.fromEntries(Object.entries(IDP_PATHS).filter(([name]) => name !== 'interaction')),
    jwks: { keys: [jwk] },
    cookies: {
      keys: ring.map((secret) => hmac(secret, 'idp-cookies')),
      long: { signed: true, sameSite: 'lax' },
      short: { signed: true, sameSite: 'lax' },
    },
    claims: {
      // amr comes from the login (interactions.ts), for every ID token.
      openid: ['sub', 'amr'],
      email: ['email', 'email_verified'],
      phone: ['phone_number', 'phone_number_verified'],
      // The names, as the reference's, and the fields IDP_OIDC_PROFILE_CLAIMS maps (profile-claims.ts).
      ...profile.claims,
    },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'phone', ...profile.extraScopes],
    // As the reference: the ID token carries the claims of the granted scopes.
    conformIdTokenClaims: false,
    acrValues: [],
    ...clientAuth,
    // Beyond the provider's own: back-channel logout, IDP_OIDC_USERINFO_ENDPOINT, registration, client ID metadata documents (discovery.ts); PAR's flag.
    discovery: { ...clientAuth.discovery, ...PAR_DISCOVERY, ...discoveryAdditions(settings, issuer) },
    extraClientMetadata: {
      properties: EXTRA_METADATA,
      validator: () => undefined,
    },
    findAccount: accounts,
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: parFeature,
      resourceIndicators: resourceIndicatorsFeature(settings, alg),
      revocation: { enabled: true },
      introspection: introspectionFeature(deps.db, accounts),
      clientCredentials: { enabled: true },
      userinfo: { enabled: settings.userinfoEndpoint === null },
      deviceFlow: deviceFlowFeature(settings, deps.pages),
      rpInitiatedLogout: logoutFeature(config, deps.pages),
      // Sender-constrained tokens (RFC 9449), oidc-provider's default, stated: see docs/idp.md.
      dPoP: { enabled: true },
    },
    pkce: {
      // Public clients must use PKCE (S256, the only method offered); confidential ones may.
      required: (_ctx: unknown, client: any) => client.clientAuthMethod === 'none',
    },
    ttl: {
      AccessToken: accessTokenTtl(settings),
      ClientCredentials: accessTokenTtl(settings),
      AuthorizationCode: settings.authorizationCodeExpiresIn,
      IdToken: settings.idTokenExpiresIn,
      DeviceCode: settings.deviceCodeExpiresIn,
      RefreshToken: settings.refreshTokenExpiresIn,
      Grant: settings.refreshTokenExpiresIn,
      Session: config.session.cookieAge,
      Interaction: 3600,
    },
    rotateRefreshToken: settings.rotateRefreshToken,
    // As the reference: a client allowed the refresh_token grant gets one, offline_access or not.
    issueRefreshToken: async (_ctx: unknown, client: any) => client.grantTypeAllowed('refresh_token'),
    // Tokens outlive the browser session that made them, as in the reference; a session's end here reaches clients by back-channel logout (backchannel.ts).
    expiresWithSession: async () => false,
    allowOmittingSingleRegisteredRedirectUri: true,
    responseTypes: ['code', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token', 'none'],
    clientBasedCORS: (_ctx: unknown, origin: string, client: ClientExtras) => originAllowed(origin, client.x_cors_origins ?? [], client.x_allow_uri_wildcards === true),
    interactions: {
      policy: loginPolicy(deps),
      url: (_ctx: unknown, interaction: { uid: string }) => `${IDP_PATHS.interaction}/${interaction.uid}`,
    },
    loadExistingGrant: async (ctx: any) => {
      const client = ctx.oidc.client as ClientExtras;
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(client.clientId);
      let grant = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      // A client that skips consent has whatever it asks for (within its scopes) granted as it asks.
      if (client.x_skip_consent && ctx.oidc.session.accountId) {
        grant ??= new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: ctx.oidc.session.accountId });
        grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
        grant.addOIDCClaims([...ctx.oidc.requestParamClaims]);
        grantRequestedResourceScopes(ctx, grant);
        await grant.save();
      }
      return grant;
    },
    renderError: async (ctx: any, out: { error: string; error_description?: string }) => {
      htmlBody(ctx, deps.pages.error(acceptLanguageOf(ctx), 'oauth', out.error_description ?? out.error));
    },
    extraTokenClaims: keepExtraClaims,
    clockTolerance: 5,
  });
  provider.proxy = config.trustedProxyCount > 0;
  // The client's address is the one the nearest trusted proxy saw: Koa would otherwise take the leftmost X-Forwarded-For, which the client writes.
  provider.maxIpsCount = config.trustedProxyCount;
  const scopes = supportedScopes(provider);
  onClientScopes = (clientScopes) => clientScopes.forEach((scope) => scopes.add(scope));

  provider.use(answerUnhandledErrors(provider, deps.pages, deps.logError));
  provider.use(saveUnsavedDeviceSession(config.session.cookieAge));
  recordInteractionTime(provider, deps.now);
  sessionIdsFromOurSessions(provider, deps);
  provider.use(devicePolling(settings, deps.now));
  provider.use(refreshExtendsGrant(settings.refreshTokenExpiresIn));
  logoutHandover(provider, config, deps.endBrowserSession);
  recordTokenEvents(provider, deps.audit);

  if (settings.accessTokenFormat === 'jwt') jwtAccessTokens(provider, issuer, settings.privateKeyPem!, jwk.kid as string, alg, deps.now);
  applyClientRules(provider);
  oneClientPerMetadata(provider);
  if (deps.limiter) throttleClientAuth(provider, deps.limiter);
  tokenExchange(provider, { db: deps.db, issuer, now: deps.now, findAccount: accounts, resourceServer: resourceServerInfo(settings, alg) });
  return provider;
}
