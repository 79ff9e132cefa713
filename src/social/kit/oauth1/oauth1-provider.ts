import type { Authenticated, CallbackProtocol, Identity, Provider, ProviderContext, ProviderType, StartedRedirect } from '../../provider-type.js';
import { ProviderError } from '../../provider-type.js';
import type { OptionSpec, SocialApp } from '../../app.js';
import { stringOption } from '../../app.js';
import { accountDisplay } from '../display.js';
import { isObject } from '../api.js';
import { authorizationHeader, type Credentials } from './signature.js';
import { parseExactJson } from '../exact-json.js';

// An OAuth 1.0a provider (RFC 5849), as the reference runs one: a signed
// request for a temporary token (with the callback URL and the scope), the
// browser sent to the provider's authorize page with it, and at the callback
// the token and its verifier traded for an access token, signed with the
// temporary token's secret (kept sealed with the flow's state meanwhile).
// The provider's API is then read with signed GETs. The callback carries no
// `state`: the flow is found again by the temporary token the provider sends
// back, still only in the browser that started it.

/** What the access token request answered (form-encoded), with the token pair. */
export interface AccessAnswer {
  token: string;
  tokenSecret: string | null;
  /** Every field of the answer (X adds user_id and screen_name; Evernote's is the profile). */
  fields: Record<string, string>;
}

/** Reading the provider's API as the user who just authorised the app. */
export interface OAuth1Api {
  /** A GET signed with the app's and the user's credentials; only a 200 with JSON will do. */
  signedGet(url: string): Promise<unknown>;
  /** A GET without a signature (Trello's API takes the key and token as parameters). */
  get(url: string): Promise<unknown>;
}

export interface OAuth1Spec {
  requestTokenUrl: string;
  authorizeUrl: string;
  accessTokenUrl: string;
  /** The scope sent with the request token call when the app sets none (the reference's get_default_scope). */
  defaultScope?: readonly string[];
  /** The authorize page's parameters from the app's AUTH_PARAMS (Flickr adds perms=read unless given, Trello always adds its own). */
  authParams?: (given: Record<string, string>, app: SocialApp) => Record<string, string>;
  profile(api: OAuth1Api, access: AccessAnswer): Promise<Identity>;
  /** Milliseconds since the epoch when the access token expires (Evernote says so), else null. */
  expiresAt?(access: AccessAnswer): number | null;
  display?(extraData: Record<string, unknown>): string;
}

/** The settings every OAuth 1.0a type takes besides the common ones. */
export const OAUTH1_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  // Every endpoint of the provider at this origin instead (a relay, or a test's stand-in): the paths stay the provider's.
  base_url: { kind: 'url', appOnly: true },
};

/** OAuth 1.0a's callback: `oauth_token` (or, when the user declined at X, `denied`) names the flow. */
export const OAUTH1_CALLBACK: CallbackProtocol = {
  stateKey: (params) => params.get('oauth_token') ?? params.get('denied'),
  answer(params) {
    if (params.has('denied')) return 'cancelled';
    return params.get('oauth_token') ? 'answered' : 'failed';
  },
};

function parseForm(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

export function oauth1Provider(context: ProviderContext, spec: OAuth1Spec): Provider {
  const { app } = context;
  const base = stringOption(app, 'base_url');
  const at = (url: string): URL => {
    const target = new URL(url);
    if (!base) return target;
    const moved = new URL(base);
    return new URL(`${moved.origin}${target.pathname}${target.search}`);
  };
  const seconds = () => Math.floor(context.now() / 1000);

  async function call(method: 'GET' | 'POST', url: URL, credentials: Credentials | null): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (credentials) headers.authorization = authorizationHeader(method, url, credentials, { timestamp: seconds() });
    let response: Response;
    try {
      // Signed for the provider's URL; sent where SOCIALACCOUNT_PROVIDER_ORIGINS says the provider is reached.
      response = await fetch(context.endpoint(url.toString()), { method, headers, redirect: 'manual', signal: AbortSignal.timeout(context.timeoutSeconds * 1000) });
    } catch (error) {
      throw new ProviderError(`${method} ${url.origin}${url.pathname} failed: ${(error as Error).message}`, { cause: error });
    }
    return { status: response.status, text: await response.text() };
  }

  /** The token calls answer 200 (or 201) with a form-encoded body holding oauth_token. */
  async function tokenCall(url: URL, credentials: Credentials, what: string): Promise<AccessAnswer> {
    const answer = await call('POST', url, credentials);
    const fields = answer.status === 200 || answer.status === 201 ? parseForm(answer.text) : {};
    const token = fields.oauth_token;
    if (!token) throw new ProviderError(`${what}: answered ${answer.status} without oauth_token`);
    return { token, tokenSecret: fields.oauth_token_secret ?? null, fields };
  }

  async function json(url: string, credentials: Credentials | null): Promise<unknown> {
    const target = at(url);
    const answer = await call('GET', target, credentials);
    if (answer.status !== 200) throw new ProviderError(`GET ${target.pathname}: answered ${answer.status}`);
    try {
      return parseExactJson(answer.text);
    } catch {
      throw new ProviderError(`GET ${target.pathname}: answered without JSON`);
    }
  }

  const consumer = { consumerKey: app.clientId, consumerSecret: app.secret };
  return {
    app,
    usesNonce: false,
    async authorizationUrl(request): Promise<StartedRedirect> {
      const requestUrl = at(spec.requestTokenUrl);
      requestUrl.searchParams.set('oauth_callback', request.redirectUri);
      const scope = app.common.scope ?? spec.defaultScope ?? [];
      if (scope.length > 0) requestUrl.searchParams.set('scope', [...new Set(scope)].join(' '));
      const temporary = await tokenCall(requestUrl, consumer, 'request token');
      const authorize = at(spec.authorizeUrl);
      const given = app.common.authParams;
      const params = { oauth_token: temporary.token, oauth_callback: request.redirectUri, ...(spec.authParams ? spec.authParams(given, app) : given) };
      for (const [name, value] of Object.entries(params)) authorize.searchParams.set(name, value);
      return { url: authorize, stateKey: temporary.token, secret: temporary.tokenSecret ?? '' };
    },
    async completeRedirect(input): Promise<Authenticated> {
      const token = input.params.get('oauth_token');
      if (!token || token !== input.state) throw new ProviderError('the callback names another request token');
      const accessUrl = at(spec.accessTokenUrl);
      const verifier = input.params.get('oauth_verifier');
      if (verifier) accessUrl.searchParams.set('oauth_verifier', verifier);
      const access = await tokenCall(accessUrl, { ...consumer, token, tokenSecret: input.secret ?? '' }, 'access token');
      const user = { ...consumer, token: access.token, tokenSecret: access.tokenSecret ?? '' };
      const identity = await spec.profile({ signedGet: (url) => json(url, user), get: (url) => json(url, null) }, access);
      return {
        identity,
        tokens: { accessToken: access.token, refreshToken: access.tokenSecret, expiresAt: spec.expiresAt?.(access) ?? null },
      };
    },
    // The reference offers no token flow for OAuth 1.0a providers.
    async verifyToken() {
      return null;
    },
    display: spec.display ?? ((extraData) => accountDisplay(extraData, app.name)),
  };
}

/** `value[key]` when it is an object, else a ProviderError: the answers are untrusted JSON. */
export function objectAt(value: unknown, key: string, what: string): Record<string, unknown> {
  const inner = isObject(value) ? value[key] : undefined;
  if (!isObject(inner)) throw new ProviderError(`${what}: no "${key}" object in the answer`);
  return inner;
}

/** A provider type over OAuth 1.0a: the redirect flow only, client_id not listed (as the reference). */
export function oauth1Type(
  id: string,
  name: string,
  spec: (context: ProviderContext) => OAuth1Spec,
  options: Readonly<Record<string, OptionSpec>> = {},
): ProviderType {
  return {
    id,
    name,
    flows: ['provider_redirect'],
    options: { ...OAUTH1_OPTIONS, ...options },
    callback: OAUTH1_CALLBACK,
    listsClientId: false,
    create: (context) => oauth1Provider(context, spec(context)),
  };
}
