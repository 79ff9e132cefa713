import type { Flow, OptionSpec, SocialApp } from './app.js';

// What a provider type is: one small file under providers/ fills this in
// (its settings, its endpoints, how it turns tokens into an identity), and
// the flows use every provider through the same few operations.

/** An address as the provider reported it. */
export interface ProviderEmail {
  email: string;
  verified: boolean;
  primary: boolean;
}

/** Who the provider says the user is. */
export interface Identity {
  /** The provider's stable subject: accounts are keyed on (provider id, uid), never on email. */
  uid: string;
  /** What the provider returned, kept as the social account's extra_data (the reference's shape). */
  extraData: Record<string, unknown>;
  emails: ProviderEmail[];
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  name?: string | null;
}

/** Tokens from the code exchange (or handed over in the token flow), kept only with SOCIALACCOUNT_STORE_TOKENS. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Milliseconds since the epoch. */
  expiresAt: number | null;
}

/** An ID token's identity for replay protection: accepted once per (issuer, jti) until it expires. */
export interface TokenUse {
  issuer: string;
  jti: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface Authenticated {
  identity: Identity;
  tokens: ProviderTokens | null;
  tokenUse?: TokenUse;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  /** S256 challenge, or null when PKCE is off for the app. */
  codeChallenge: string | null;
  /** Sent when the provider `usesNonce`, else null. */
  nonce: string | null;
}

export interface CallbackInput {
  /** The parameters the provider sent back (query, or form for form_post). */
  params: URLSearchParams;
  /** Exactly the redirect_uri of the authorization request. */
  redirectUri: string;
  state: string;
  codeVerifier: string | null;
  /** The nonce of the authorization request: the ID token must carry it. */
  nonce: string | null;
  /** Apple: the `user` form field of its first authorization (the only time it sends the name). */
  postedUser: string | null;
  /** What the provider kept with the state (OAuth 1.0a: the request token's secret), opened again; absent when none was kept. */
  secret?: string | null;
}

/**
 * The start of a redirect flow whose callback does not carry our `state`
 * back (OAuth 1.0a): the provider's own key for it, and a secret to keep
 * sealed with the state until the callback.
 */
export interface StartedRedirect {
  url: URL;
  /** What the callback will name the flow by instead of `state` (OAuth 1.0a: the request token). */
  stateKey: string;
  secret: string | null;
}

/** What a callback says, read before any state is redeemed. */
export type CallbackAnswer = 'answered' | 'cancelled' | 'failed';

/** A callback that is not OAuth 2's (OAuth 1.0a, OpenID 2.0, Telegram). */
export interface CallbackProtocol {
  /** The callback's path after /accounts/<type>/, when not `login/callback/` (Steam's is `callback/`). */
  path?: string;
  /** The key the flow's state was stored under, from the callback's parameters. */
  stateKey(params: URLSearchParams): string | null;
  answer(params: URLSearchParams): CallbackAnswer;
  /**
   * The provider hands its answer to a page of ours in the URL fragment, which
   * a server never sees (Telegram): GET serves this page, whose script posts
   * the fragment back to the same URL, where the login completes.
   */
  relayPage?: boolean;
}

/** Raised when talking to the provider fails or its answer is unusable; the flows answer it as the reference does. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

/** Where a provider runs: its app, the shared settings it reads, and the injected clock. */
export interface ProviderContext {
  app: SocialApp;
  /** SOCIALACCOUNT_REQUESTS_TIMEOUT, in seconds. */
  timeoutSeconds: number;
  /** SOCIALACCOUNT_QUERY_EMAIL: ask for the email scope. */
  queryEmail: boolean;
  /** SOCIALACCOUNT_EMAIL_REQUIRED (Authentiq asks for a required address with its scope's modifiers). */
  emailRequired: boolean;
  /** SOCIALACCOUNT_STORE_TOKENS: a few providers ask for more when the tokens are kept (EVE Online's publicData). */
  storeTokens: boolean;
  /** A provider URL this server calls, as it reaches it (SOCIALACCOUNT_PROVIDER_ORIGINS may serve an origin elsewhere). */
  endpoint(url: string): string;
  now(): number;
}

/** One app's provider at run time. */
export interface Provider {
  readonly app: SocialApp;
  /** An OpenID Connect login: the redirect flow sends a nonce, and the code exchange needs an ID token that carries it back. */
  readonly usesNonce: boolean;
  /** Where the browser goes: a URL (OAuth 2, OpenID 2.0, Telegram), or a StartedRedirect when the callback names the flow by a key of the provider's. */
  authorizationUrl(request: AuthorizationRequest): Promise<URL | StartedRedirect>;
  /** Redeems the authorization code; throws ProviderError when the provider refuses or answers nonsense. */
  completeRedirect(input: CallbackInput): Promise<Authenticated>;
  /** The token flow: null when the tokens do not prove who the user is for this app. */
  verifyToken(token: { idToken?: string; accessToken?: string }): Promise<Authenticated | null>;
  /** The `display` of a connected account, from its stored extra_data. */
  display(extraData: Record<string, unknown>): string;
  /** What to store on a later login (Apple sends the name only the first time). */
  mergeExtraData?(stored: Record<string, unknown>, fresh: Record<string, unknown>): Record<string, unknown>;
}

export interface ProviderType {
  /** The key under SOCIALACCOUNT_PROVIDERS, and (except openid_connect) the callback path segment. */
  readonly id: string;
  /** The default app name. */
  readonly name: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** The flows its apps offer, as /config lists them. */
  readonly flows: readonly Flow[];
  /** The callback path segment when it is not the id (the reference's `amazon-cognito`, `23andme`). */
  readonly slug?: string;
  /** PKCE when the app's settings do not say: on unless the type says otherwise (the catalogue follows the reference). */
  readonly pkceDefault?: boolean;
  /** The provider answers with response_mode=form_post: its callback is a cross-site POST (Apple). */
  readonly formPost?: boolean;
  /** Set for protocols whose callback is not OAuth 2's. */
  readonly callback?: CallbackProtocol;
  /** Apps of this type need no client_id (Steam's app holds only its Web API key, as `secret`). */
  readonly clientIdOptional?: boolean;
  /** /config shows an app's client_id (the reference does so for OAuth 2 types only). Default true. */
  readonly listsClientId?: boolean;
  /** Checks beyond the option specs (e.g. Apple needs `key`); a message naming the field, or null. */
  validate?(app: SocialApp): string | null;
  create(context: ProviderContext): Provider;
}
