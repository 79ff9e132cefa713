import type { Flow, OptionSpec, OptionValue, SocialApp } from '../app.js';
import type { Authenticated, CallbackProtocol, Identity, ProviderContext, ProviderEmail, ProviderType } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { isTrue, text, uidOf } from './claims.js';
import { accountDisplay } from './display.js';
import { pick } from './fields.js';
import { providerApi, type Api, type ApiCall } from './provider-api.js';
import { redeemCode, type CodeInput, type TokenAnswer, type TokenEndpoint } from './code-exchange.js';

// A catalogue provider as data: its endpoints, scopes, how it takes the
// client's credentials, where the profile lives and which fields hold the
// uid, address, names; the reference's settings with their defaults. Most of
// the reference's OAuth 2 providers are one such declaration; hooks (a
// profile function, a code exchange of its own, the token flow) carry the few
// that differ, instead of a fork of the flow.

/** An app's settings with the declaration's defaults filled in (lower-case names). */
export type Settings = Readonly<Record<string, OptionValue>>;

/** A setting of the type: its spec, and the value when neither the provider level nor the app says. */
export type SettingSpec = OptionSpec & { default?: OptionValue };

/** A URL, fixed or built from the settings (a tenant's base URL, an API version). */
export type UrlOf = string | ((settings: Settings, app: SocialApp) => string);

/** A value of the stored data: a dotted path into it, or a function of it. */
export type Field = string | ((data: Record<string, unknown>, settings: Settings) => unknown);

export interface ProfileInput {
  context: ProviderContext;
  settings: Settings;
  token: TokenAnswer;
  /** The callback's query (a few providers send more than the code). */
  params: URLSearchParams;
  api: Api;
}

/** One profile call whose (unwrapped) JSON object is the account's extra_data. */
export interface ProfileCall extends Omit<ApiCall, 'query'> {
  url: UrlOf;
  query?: Record<string, string | readonly string[]> | ((settings: Settings, token: TokenAnswer) => Record<string, string | readonly string[]>);
  /** The path of the object inside the answer that is the user (`data`, `response.user`, `users.0`). */
  unwrap?: string;
}

export interface TokenFlowInput {
  context: ProviderContext;
  settings: Settings;
  idToken?: string;
  accessToken?: string;
  /** The identity the declaration derives from extra_data. */
  identityOf(data: Record<string, unknown>): Identity;
  /** The declaration's profile step for an access token handed over (its extra_data). */
  profileOf(accessToken: string): Promise<Record<string, unknown>>;
}

/**
 * The token flow of an access token: it counts only once the provider named
 * the user it was issued to for this app (`owner`: that user's uid, or null
 * for another app's token), and the profile behind it is that user.
 */
export function ownedAccessToken(owner: (api: Api, input: TokenFlowInput) => Promise<string | null>): NonNullable<OAuth2Declaration['tokenFlow']> {
  return async (input) => {
    if (!input.accessToken) return null;
    const uid = await owner(providerApi(input.context, input.accessToken), input);
    if (uid === null) return null;
    const identity = input.identityOf(await input.profileOf(input.accessToken));
    return identity.uid === uid ? { identity, tokens: { accessToken: input.accessToken, refreshToken: null, expiresAt: null } } : null;
  };
}

export interface OAuth2Declaration {
  id: string;
  name: string;
  slug?: string;
  /** The type's own settings (`name` in an app's settings, `NAME` at the provider level). */
  settings?: Readonly<Record<string, SettingSpec>>;
  /** The reference's pkce_enabled_default (off unless said). */
  pkce?: boolean;
  authorizeUrl: UrlOf;
  tokenUrl: UrlOf;
  /** Default scopes (the app's `scope` replaces them). */
  scope?: readonly string[] | ((settings: Settings, queryEmail: boolean, storeTokens: boolean) => readonly string[]);
  scopeDelimiter?: string;
  /** The scopes as sent, from the app's or the default ones (Authentiq adds openid and rewrites email). */
  finalScope?: (scope: readonly string[], context: ProviderContext) => readonly string[];
  /** The name of the client id parameter of the authorization request (TikTok: client_key). */
  clientIdParam?: string;
  /** The scheme the redirect URI is sent with whatever the request's (the reference's redirect_uri_protocol: edX wants https). */
  redirectUriProtocol?: 'https';
  /** Parameters every authorization request carries (the app's auth_params come after them). */
  authorizeParams?: Record<string, string> | ((settings: Settings, redirectUri: string) => Record<string, string>);
  token?: TokenEndpoint | ((settings: Settings) => TokenEndpoint);
  /** The callback's parameter that carries the code when the provider does not call it `code` (DingTalk's authCode). */
  codeParam?: string;
  /** Fields the code exchange adds to the standard ones, from the callback's query. */
  tokenFields?: (params: URLSearchParams) => Record<string, string>;
  /** A code exchange of the provider's own, instead of the standard form. */
  exchange?: (context: ProviderContext, settings: Settings, input: CodeInput & { params: URLSearchParams }) => Promise<TokenAnswer>;
  /** The call that returns the user, or a function returning the extra_data. */
  profile: ProfileCall | ((input: ProfileInput) => Promise<Record<string, unknown>>);
  uid: Field;
  email?: Field;
  /** Whether the address counts as verified: a constant, or a field holding a flag. */
  verified?: boolean | Field;
  /** Every address with its own flags, instead of email/verified. */
  emails?: (data: Record<string, unknown>, settings: Settings) => ProviderEmail[];
  username?: Field;
  /** The person's name (Identity.name). */
  fullName?: Field;
  firstName?: Field;
  lastName?: Field;
  display?: (data: Record<string, unknown>, fallback: string) => string;
  /** What is kept as extra_data when it is not the whole profile (the fields above read the profile). */
  storedData?: (data: Record<string, unknown>) => Record<string, unknown>;
  /** The token flow, for the providers the reference accepts tokens for. */
  tokenFlow?: (input: TokenFlowInput) => Promise<Authenticated | null>;
  validate?: ProviderType['validate'];
}

function read(field: Field | undefined, data: Record<string, unknown>, settings: Settings): unknown {
  if (field === undefined) return undefined;
  return typeof field === 'string' ? pick(data, field) : field(data, settings);
}

function urlOf(url: UrlOf, settings: Settings, app: SocialApp): string {
  return typeof url === 'string' ? url : url(settings, app);
}

/** The app's settings over the declaration's defaults. */
function settingsOf(declaration: OAuth2Declaration, options: Settings): Settings {
  const defaults = Object.entries(declaration.settings ?? {}).filter(([, spec]) => spec.default !== undefined);
  return { ...Object.fromEntries(defaults.map(([name, spec]) => [name, spec.default])), ...options };
}

/** The identity in a declared provider's stored data. */
export function declaredIdentity(declaration: OAuth2Declaration, data: Record<string, unknown>, settings: Settings): Identity {
  const value = (field: Field | undefined) => {
    const found = read(field, data, settings);
    return typeof found === 'number' ? String(found) : text(found);
  };
  let emails: ProviderEmail[];
  if (declaration.emails) emails = declaration.emails(data, settings);
  else {
    const email = value(declaration.email);
    const verified = typeof declaration.verified === 'boolean' ? declaration.verified : isTrue(read(declaration.verified, data, settings));
    emails = email ? [{ email, verified, primary: true }] : [];
  }
  return {
    uid: uidOf(read(declaration.uid, data, settings)),
    extraData: declaration.storedData ? declaration.storedData(data) : data,
    emails,
    username: value(declaration.username),
    name: value(declaration.fullName),
    firstName: value(declaration.firstName),
    lastName: value(declaration.lastName),
  };
}

async function profileOf(declaration: OAuth2Declaration, input: ProfileInput): Promise<Record<string, unknown>> {
  const spec = declaration.profile;
  if (typeof spec === 'function') return spec(input);
  const { url, query, unwrap, ...call } = spec;
  const answer = await input.api.json(urlOf(url, input.settings, input.context.app), { ...call, query: typeof query === 'function' ? query(input.settings, input.token) : query });
  const user = unwrap ? pick(answer, unwrap) : answer;
  if (typeof user !== 'object' || user === null || Array.isArray(user)) throw new ProviderError(`${declaration.id}: the profile answer holds no user`);
  return user as Record<string, unknown>;
}

/** The code of a callback: under the declaration's own name, else `code`. */
function codeOf(declaration: OAuth2Declaration, params: URLSearchParams): string | null {
  return (declaration.codeParam ? params.get(declaration.codeParam) : null) ?? params.get('code');
}

/** OAuth 2's callback, for a provider that names the code otherwise. */
function callbackNaming(declaration: OAuth2Declaration): CallbackProtocol {
  return {
    stateKey: (params) => params.get('state'),
    answer(params) {
      const error = params.get('error');
      if (error !== null) return error === 'access_denied' ? 'cancelled' : 'failed';
      return codeOf(declaration, params) ? 'answered' : 'failed';
    },
  };
}

export function declareOAuth2Provider(declaration: OAuth2Declaration): ProviderType {
  const flows: Flow[] = declaration.tokenFlow ? ['provider_redirect', 'provider_token'] : ['provider_redirect'];
  return {
    id: declaration.id,
    name: declaration.name,
    slug: declaration.slug,
    flows,
    pkceDefault: declaration.pkce ?? false,
    options: Object.fromEntries(Object.entries(declaration.settings ?? {}).map(([name, { default: _default, ...spec }]) => [name, spec])),
    validate: declaration.validate,
    callback: declaration.codeParam ? callbackNaming(declaration) : undefined,
    create(context) {
      const { app } = context;
      const settings = settingsOf(declaration, app.options);
      const defaults = typeof declaration.scope === 'function' ? declaration.scope(settings, context.queryEmail, context.storeTokens) : (declaration.scope ?? []);
      const chosen = [...new Set(app.common.scope ?? defaults)];
      const scope = (declaration.finalScope ? declaration.finalScope(chosen, context) : chosen).join(declaration.scopeDelimiter ?? ' ');
      const endpoint = typeof declaration.token === 'function' ? declaration.token(settings) : (declaration.token ?? {});
      const identityOf = (data: Record<string, unknown>) => declaredIdentity(declaration, data, settings);
      // The same form in the authorization request and the code exchange, as the provider compares them.
      const redirectUriOf = (uri: string) => (declaration.redirectUriProtocol ? uri.replace(/^[a-z]+:/, `${declaration.redirectUriProtocol}:`) : uri);
      return {
        app,
        // No ID token is checked in these flows, so no nonce to bind.
        usesNonce: false,
        async authorizationUrl(request) {
          // The browser goes to the provider itself: only this server's own calls are served elsewhere.
          const url = new URL(urlOf(declaration.authorizeUrl, settings, app));
          const redirectUri = redirectUriOf(request.redirectUri);
          const fixed = typeof declaration.authorizeParams === 'function' ? declaration.authorizeParams(settings, redirectUri) : declaration.authorizeParams;
          const query: Record<string, string> = {
            [declaration.clientIdParam ?? 'client_id']: app.clientId,
            redirect_uri: redirectUri,
            // Sent even when empty, as the reference does.
            scope,
            response_type: 'code',
            state: request.state,
            ...fixed,
            ...app.common.authParams,
          };
          if (request.codeChallenge) Object.assign(query, { code_challenge: request.codeChallenge, code_challenge_method: 'S256' });
          for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
          return url;
        },
        async completeRedirect(input) {
          const code = codeOf(declaration, input.params);
          if (!code) throw new ProviderError('the callback carries no code');
          const codeInput = { code, redirectUri: redirectUriOf(input.redirectUri), codeVerifier: input.codeVerifier };
          const token = declaration.exchange
            ? await declaration.exchange(context, settings, { ...codeInput, params: input.params })
            : await redeemCode(context, urlOf(declaration.tokenUrl, settings, app), endpoint, codeInput, declaration.tokenFields?.(input.params));
          const api = providerApi(context, token.tokens.accessToken);
          const data = await profileOf(declaration, { context, settings, token, params: input.params, api });
          return { identity: identityOf(data), tokens: token.tokens };
        },
        async verifyToken(token) {
          if (!declaration.tokenFlow) return null;
          const profile = (accessToken: string) =>
            profileOf(declaration, {
              context,
              settings,
              token: { raw: { access_token: accessToken }, tokens: { accessToken, refreshToken: null, expiresAt: null } },
              params: new URLSearchParams(),
              api: providerApi(context, accessToken),
            });
          return declaration.tokenFlow({ context, settings, ...token, identityOf, profileOf: profile });
        },
        display: (data) => (declaration.display ?? accountDisplay)(data, app.name),
      };
    },
  };
}
