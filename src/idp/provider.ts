import { createHash, createPrivateKey, randomUUID, sign as cryptoSign } from 'node:crypto';
import Provider, { interactionPolicy } from 'oidc-provider';
import internal from 'oidc-provider/lib/helpers/weak_cache.js';
import type { Config } from '../config/config.js';
import type { Db } from '../store/db.js';
import type { AtRestCipher } from '../security/at-rest.js';
import { hashSecret, hmac } from '../security/secrets.js';
import { secretRing } from '../security/signing.js';
import { findUserById } from '../store/users.js';
import { findPhoneOfUser } from '../store/phones.js';
import { findLiveSession } from '../store/sessions.js';
import { createAdapterClass } from './adapter.js';
import { signingKey } from '../security/idp-signing-key.js';
import { EXTRA_METADATA, type ClientExtras } from './client-metadata.js';
import { clientSecretMatches } from './client-secrets.js';
import { originAllowed, redirectUriAllowed } from './uris.js';
import { errorPage, escapeHtml, page } from './pages.js';
import { IDP_PATHS } from './paths.js';

// panva's oidc-provider (OpenID Certified) configured as the reference's
// allauth.idp.oidc: its paths, its settings, its client model. Grants,
// tokens, device codes and sessions live in our database (adapter.ts);
// logging in is ours (interactions.ts): the provider hands over to
// /identity/o/interaction/<uid>, which finds the user in our own browser
// session or sends the browser to the SPA's login page.

export interface ProviderDeps {
  config: Config;
  db: Db;
  atRest: AtRestCipher;
  now: () => number;
  /** Records an audit event of the provider's (token issued, revoked, a refresh token replayed). */
  audit(event: ProviderEvent): Promise<void>;
  /** Where the provider's internal errors (500s) are logged. */
  logError(error: unknown, message: string): void;
  /** Ends the browser's session here (RP-initiated logout that logs out of the OP too). */
  endBrowserSession(sessionKey: string, ip: string, userAgent: string): Promise<void>;
}

export interface ProviderEvent {
  type: 'idp.token_issued' | 'idp.token_revoked' | 'idp.refresh_token_reused';
  userId: number | null;
  clientId: string | undefined;
  grantType?: string;
  tokenType?: string;
  ip: string;
  userAgent: string;
}

const { base: basePolicy, Check } = interactionPolicy;

/**
 * The scopes the provider accepts: the standard ones and those of each
 * client, as the reference lets each client list its own (an API's `read`,
 * `write`), each client held to its list. oidc-provider copies its `scopes`
 * setting into a Set of its own at construction and checks scopes against
 * it, so a client's scopes join that Set when the client is loaded (reached
 * through the package's internal configuration reader:
 * test/idp/tokens.test.ts fails if an update moves it).
 */
function supportedScopes(provider: unknown): Set<string> {
  return (internal(provider) as { configuration: { scopes: Set<string> } }).configuration.scopes;
}

/** Builds the provider for one issuer. */
export function buildProvider(deps: ProviderDeps, issuer: string): any {
  const { config } = deps;
  const settings = config.idp;
  const { jwk, alg } = signingKey(settings.privateKeyPem!);
  const ring = secretRing(config);

  // The login prompt also asks when our own session no longer is the one the
  // provider's session remembers (logged out here, or another user): the
  // provider's session never outlives ours.
  const policy = basePolicy();
  policy.get('login').checks.add(
    new Check('headless_session', 'the session at the authentication server ended', 'login_required', async (ctx: any) => {
      const accountId = ctx.oidc.session.accountId;
      if (!accountId || ctx.oidc.result?.login) return Check.NO_NEED_TO_PROMPT;
      const key = ctx.cookies.get(config.session.cookieName);
      const found = key ? await findLiveSession(deps.db, key, deps.now()) : null;
      if (!found?.user || !found.user.isActive || found.session.flow !== null || String(found.user.id) !== accountId) return Check.REQUEST_PROMPT;
      return Check.NO_NEED_TO_PROMPT;
    }),
    0,
  );
  // max_age by the server's clock (the provider's own check reads the system time).
  policy.get('login').checks.add(
    new Check('headless_max_age', 'End-User authentication could not be obtained', 'login_required', async (ctx: any) => {
      const maxAge = ctx.oidc.params.max_age;
      const authTime = ctx.oidc.session.authTime();
      if (maxAge === undefined || !ctx.oidc.session.accountId || ctx.oidc.result?.login || typeof authTime !== 'number') return Check.NO_NEED_TO_PROMPT;
      return deps.now() / 1000 - authTime > Number(maxAge) ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT;
    }),
    1,
  );

  // oidc-provider asks a native client's user (loopback or custom-scheme redirect URIs, which any app
  // may claim) for consent every time; a client registered to skip consent skips it, as in the reference.
  const native = policy.get('consent').checks.get('native_client_prompt');
  const askNative = native.check;
  native.check = (ctx: any) => ((ctx.oidc.client as ClientExtras).x_skip_consent ? Check.NO_NEED_TO_PROMPT : askNative(ctx));

  let onClientScopes: (scopes: string[]) => void = () => undefined;
  const provider = new Provider(issuer, {
    adapter: createAdapterClass({ db: deps.db, atRest: deps.atRest, now: deps.now, signingAlg: alg, issuer, onClientScopes: (clientScopes) => onClientScopes(clientScopes) }),
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
      profile: ['name', 'given_name', 'family_name', 'preferred_username'],
      email: ['email', 'email_verified'],
      phone: ['phone_number', 'phone_number_verified'],
    },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'phone'],
    // As the reference: the ID token carries the claims of the granted scopes.
    conformIdTokenClaims: false,
    acrValues: [],
    // IDP_OIDC_USERINFO_ENDPOINT: announced instead of the built-in endpoint, which is then off.
    ...(settings.userinfoEndpoint ? { discovery: { userinfo_endpoint: settings.userinfoEndpoint } } : {}),
    extraClientMetadata: {
      properties: EXTRA_METADATA,
      validator: () => undefined,
    },
    findAccount: async (_ctx: unknown, sub: string) => {
      if (!/^\d{1,15}$/.test(sub)) return undefined;
      const user = await findUserById(deps.db, Number(sub));
      if (!user || !user.isActive) return undefined;
      return {
        accountId: sub,
        claims: async () => {
          const phone = await findPhoneOfUser(deps.db, user.id);
          return {
            sub,
            ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
            ...(user.username ? { preferred_username: user.username } : {}),
            ...(phone ? { phone_number: phone.phone, phone_number_verified: phone.verified } : {}),
          };
        },
      };
    },
    features: {
      devInteractions: { enabled: false },
      // Not in the reference; off to keep the surface its clients know.
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      clientCredentials: { enabled: true },
      userinfo: { enabled: settings.userinfoEndpoint === null },
      deviceFlow: {
        enabled: true,
        charset: settings.userCodeFormat.numeric ? 'digits' : 'base-20',
        mask: userCodeMask(settings.userCodeFormat),
        userCodeInputSource: async (ctx: any, form: string, _out: unknown, err: any) => {
          const message = err ? `<p class="error">${err.userCode || err.name === 'NoCodeError' ? 'That code is not valid. Try again.' : 'The request could not be completed.'}</p>` : '<p>Enter the code your device shows.</p>';
          // The provider's form selects the field with an inline handler: no script runs on these pages.
          const plain = form.replace(/\s+onfocus="[^"]*"/g, '');
          htmlBody(ctx, page('Connect a device', `${message}${plain}<button type="submit" form="op.deviceInputForm">Continue</button>`));
        },
        userCodeConfirmSource: async (ctx: any, form: string, client: any, _info: unknown, userCode: string) => {
          htmlBody(
            ctx,
            page(
              `Connect ${client.clientName ?? client.clientId}?`,
              `<p>Your device should show this code:</p><p><code>${escapeHtml(userCode)}</code></p><p>Continue only if it does and you started this.</p>${form}` +
                '<button type="submit" form="op.deviceConfirmForm">Continue</button><button type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Cancel</button>',
            ),
          );
        },
        successSource: async (ctx: any) => {
          htmlBody(ctx, page('Device connected', '<p>You can close this page and return to your device.</p>'));
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: any, form: string) => {
          // As the reference: ask whether to log out here too, unless told not to
          // (IDP_OIDC_RP_INITIATED_LOGOUT_ASKS_FOR_OP_LOGOUT=false) and the
          // id_token_hint names the logged-in user; then log out at once.
          const hintSub = ctx.oidc.entities.IdTokenHint?.payload?.sub;
          const ask = settings.rpInitiatedLogoutAsksForOpLogout || !hintSub || hintSub !== ctx.oidc.session.accountId;
          if (!ask) {
            autoSubmit(ctx, ctx.oidc.urlFor('end_session_confirm'), { xsrf: ctx.oidc.session.state.secret, logout: 'yes' });
            return;
          }
          htmlBody(
            ctx,
            page(`Sign out of ${config.siteName}?`, `<p>You are signing out of an application. Sign out of ${escapeHtml(config.siteName)} as well?</p>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button><button type="submit" form="op.logoutForm">No, stay signed in</button>`),
          );
        },
        postLogoutSuccessSource: async (ctx: any) => {
          htmlBody(ctx, page('Signed out', '<p>You have been signed out.</p>'));
        },
      },
    },
    pkce: {
      // Public clients must use PKCE (S256, the only method offered); confidential ones may.
      required: (_ctx: unknown, client: any) => client.clientAuthMethod === 'none',
    },
    ttl: {
      AccessToken: settings.accessTokenExpiresIn,
      ClientCredentials: settings.accessTokenExpiresIn,
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
      policy,
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
        await grant.save();
      }
      return grant;
    },
    renderError: async (ctx: any, out: { error: string; error_description?: string }) => {
      htmlBody(ctx, errorPage('Sign-in failed', out.error_description ?? out.error));
    },
    clockTolerance: 5,
  });
  provider.proxy = config.trustedProxyCount > 0;
  const scopes = supportedScopes(provider);
  onClientScopes = (clientScopes) => clientScopes.forEach((scope) => scopes.add(scope));

  // Audit events: tokens issued and revoked, and a rotated refresh token
  // presented again (the provider then revokes its whole grant).
  const eventOf = (ctx: any, type: ProviderEvent['type'], userId: string | undefined, extra: Partial<ProviderEvent> = {}): ProviderEvent => ({
    type,
    userId: userId && /^\d+$/.test(userId) ? Number(userId) : null,
    clientId: ctx.oidc?.client?.clientId,
    ip: ctx.ip ?? '',
    userAgent: String(ctx.get('user-agent') ?? '').slice(0, 512),
    ...extra,
  });
  // RFC 8628 section 3.5: a device polling before its interval is over is
  // told slow_down, and its interval grows by 5 seconds. Kept per process
  // (by the code's digest): behind several instances a device may poll each
  // once per interval.
  const polls = new Map<string, { at: number; interval: number }>();
  const slowDown = (ctx: any) => {
    const key = hashSecret(String(ctx.oidc.params.device_code));
    const now = deps.now();
    const last = polls.get(key);
    const interval = last?.interval ?? settings.deviceCodeInterval;
    polls.delete(key);
    if (polls.size >= 10_000) polls.delete(polls.keys().next().value!);
    const early = last !== undefined && now - last.at < interval * 1000;
    polls.set(key, { at: now, interval: early ? interval + 5 : interval });
    if (early) ctx.body = { error: 'slow_down', error_description: 'you are polling too quickly and should back off at a reasonable rate' };
  };

  provider.use(async (ctx: any, next: () => Promise<void>) => {
    await next();
    const route = ctx.oidc?.route;
    if (route === 'token' && ctx.oidc.params?.grant_type === 'urn:ietf:params:oauth:grant-type:device_code' && ctx.body?.error === 'authorization_pending') slowDown(ctx);
    // The polling interval a device is told (RFC 8628 section 3.2); oidc-provider leaves it out.
    if (route === 'device_authorization' && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') ctx.body = { ...ctx.body, interval: settings.deviceCodeInterval };
    if (route === 'token' && ctx.state.refreshTokenReused) {
      await deps.audit(eventOf(ctx, 'idp.refresh_token_reused', ctx.state.refreshTokenReused.accountId, { grantType: 'refresh_token' }));
    } else if (route === 'token' && ctx.status === 200) {
      const entities = ctx.oidc.entities;
      // A used refresh token's grant lives on as long as the new token: the lifetime counts from the last use.
      if (ctx.oidc.params?.grant_type === 'refresh_token' && entities.Grant) await entities.Grant.save(settings.refreshTokenExpiresIn);
      const accountId = entities.AccessToken?.accountId ?? entities.Account?.accountId;
      await deps.audit(eventOf(ctx, 'idp.token_issued', accountId, { grantType: String(ctx.oidc.params?.grant_type ?? '') }));
    } else if (route === 'end_session_confirm' && ctx.oidc.params?.logout) {
      const key = ctx.cookies.get(config.session.cookieName);
      if (key) await deps.endBrowserSession(key, ctx.ip ?? '', String(ctx.get('user-agent') ?? '').slice(0, 512));
    } else if (route === 'revocation' && ctx.status === 200) {
      const token = ctx.oidc.entities.AccessToken ?? ctx.oidc.entities.RefreshToken ?? ctx.oidc.entities.ClientCredentials;
      await deps.audit(eventOf(ctx, 'idp.token_revoked', token?.accountId, token ? { tokenType: token.kind } : {}));
    }
  });
  provider.on('server_error', (_ctx: unknown, error: unknown) => deps.logError(error, 'OpenID provider error'));
  // Marked here, recorded by the middleware above before the answer goes out.
  provider.on('grant.revoked', (ctx: any) => {
    if (ctx.oidc?.route !== 'token') return;
    ctx.state.refreshTokenReused = { accountId: ctx.oidc.entities.RefreshToken?.accountId ?? ctx.oidc.entities.Grant?.accountId };
  });

  if (settings.accessTokenFormat === 'jwt') jwtAccessTokens(provider, issuer, settings.privateKeyPem!, jwk.kid as string, alg, deps.now);

  // Our redirect URI rules (uris.ts) and hashed client secrets.
  const Client = provider.Client;
  Client.prototype.redirectUriAllowed = function (this: ClientExtras, value: string) {
    return redirectUriAllowed(value, this.x_redirect_uris, this.x_allow_uri_wildcards);
  };
  Client.prototype.postLogoutRedirectUriAllowed = function (this: ClientExtras, value: string) {
    return redirectUriAllowed(value, this.x_post_logout_redirect_uris, this.x_allow_uri_wildcards);
  };
  // The provider compares the presented secret with client_secret; ours is a hash.
  Client.prototype.compareClientSecret = function (this: { clientSecret: string }, actual: string) {
    return clientSecretMatches(actual, this.clientSecret);
  };
  return provider;
}

/**
 * A form that submits itself: the one script a page of the provider runs,
 * allowed by its hash alone (oidc-provider's form_post does the same).
 */
function autoSubmit(ctx: any, action: string, fields: Record<string, string>): void {
  const script = "document.addEventListener('DOMContentLoaded',function(){document.forms[0].submit()})";
  const csp = String(ctx.response.get('content-security-policy') ?? '').replace("script-src 'none'", `script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  ctx.set('content-security-policy', csp);
  const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
  htmlBody(ctx, page('Signing out', `<form method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form><script>${script}</script>`));
}

function htmlBody(ctx: any, html: string): void {
  ctx.type = 'html';
  ctx.body = html;
}

/**
 * IDP_OIDC_ACCESS_TOKEN_FORMAT=jwt, as the reference makes them: the token's
 * value is a JWT signed with the provider's key (iss, client_id, sub,
 * scope, iat, exp, jti, token_use), with no audience, so that it still
 * works at userinfo. oidc-provider's own JWT format is for resource servers
 * (with an audience, which userinfo refuses) and is never stored, so it
 * could not be revoked or introspected; here the JWT is the token's id,
 * stored (as every id) by its SHA-256: revocation and introspection work as
 * for opaque tokens. The id is made synchronously, hence node:crypto's
 * signing rather than jose's.
 */
function jwtAccessTokens(provider: any, issuer: string, pem: string, kid: string, alg: string, now: () => number): void {
  const key = createPrivateKey(pem);
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const sign = (claims: Record<string, unknown>): string => {
    const input = `${b64({ alg, kid, typ: 'at+jwt' })}.${b64(claims)}`;
    const hash = `sha${alg.slice(2)}`;
    const signature = alg.startsWith('RS') ? cryptoSign(hash, Buffer.from(input), key) : cryptoSign(hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  };
  for (const Model of [provider.AccessToken, provider.ClientCredentials]) {
    Model.prototype.generateTokenId = function (this: { clientId: string; accountId?: string; scope?: string; expiration: number; format?: string }) {
      // Kept (and looked up) as an opaque token is.
      this.format = 'opaque';
      const iat = Math.floor(now() / 1000);
      return sign({
        iss: issuer,
        client_id: this.clientId,
        ...(this.accountId ? { sub: this.accountId } : {}),
        ...(this.scope ? { scope: this.scope } : {}),
        iat,
        exp: iat + this.expiration,
        jti: randomUUID().replaceAll('-', ''),
        token_use: 'access',
      });
    };
  }
}

/** oidc-provider's mask for the reference's user code format: `*` per character, dashes between groups. */
export function userCodeMask(format: { length: number; dashed: boolean }): string {
  if (!format.dashed) return '*'.repeat(format.length);
  const parts = format.length <= 8 ? 2 : 3;
  const chunk = Math.ceil(format.length / parts);
  const groups: string[] = [];
  for (let i = 0; i < format.length; i += chunk) groups.push('*'.repeat(Math.min(chunk, format.length - i)));
  return groups.join('-');
}
