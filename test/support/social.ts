import assert from 'node:assert/strict';
import type { JWTPayload } from 'jose';
import { ApiClient, type ApiResponse } from './client.js';
import type { TestServer } from './server.js';
import type { TestIdp } from './oidc-provider.js';

// Helpers shared by the social login suites: provider settings in the
// reference's shape, ID token claims, and a browser's walk through the
// redirect flow (our redirect endpoint, the provider, our callback).

export interface OidcAppOptions {
  id: string;
  clientId: string;
  secret?: string;
  name?: string;
  settings?: Record<string, unknown>;
}

/** One openid_connect app of SOCIALACCOUNT_PROVIDERS pointing at `idp`. */
export function oidcApp(idp: TestIdp, options: OidcAppOptions) {
  return {
    provider_id: options.id,
    name: options.name ?? options.id,
    client_id: options.clientId,
    secret: options.secret ?? `${options.clientId}-secret`,
    settings: { server_url: idp.issuer, ...options.settings },
  };
}

export function providersEnv(providers: Record<string, unknown>, extra: Record<string, string> = {}): Record<string, string> {
  return { SOCIALACCOUNT_PROVIDERS: JSON.stringify(providers), ...extra };
}

/** The OpenID Connect callback our server serves for an app. */
export function oidcCallback(server: TestServer, providerId: string): string {
  return `${server.baseUrl}/accounts/oidc/${providerId}/login/callback/`;
}

/** Claims of a valid ID token for `aud`, at the server's clock; `overrides` may drop a claim by setting it undefined. */
export function idTokenClaims(idp: TestIdp, server: TestServer, aud: string, overrides: JWTPayload & Record<string, unknown> = {}): JWTPayload {
  const now = Math.floor(server.clock.now() / 1000);
  const claims: Record<string, unknown> = { iss: idp.issuer, aud, iat: now, exp: now + 600, ...overrides };
  for (const [key, value] of Object.entries(claims)) if (value === undefined) delete claims[key];
  return claims;
}

export function tokenLogin(client: ApiClient, provider: string, token: Record<string, unknown>, process: 'login' | 'connect' = 'login'): Promise<ApiResponse> {
  return client.post('/auth/provider/token', { provider, process, token });
}

export interface Hop {
  status: number;
  location: string | null;
}

/** Where cookies live between requests: a browser client, or a jar of its own (ApiClient keeps one). */
export type CookieJar = Pick<ApiClient, 'cookies' | 'cookieHeader' | 'absorbCookies'>;

/** One request without following redirects; the jar's cookies go along and come back. */
export async function navigate(client: CookieJar | null, url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Hop> {
  const headers: Record<string, string> = {};
  if (client?.cookies.size) headers.cookie = client.cookieHeader;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
  await response.arrayBuffer();
  client?.absorbCookies(response.headers);
  const location = response.headers.get('location');
  return { status: response.status, location: location === null ? null : new URL(location, url).toString() };
}

/** POSTs the redirect form a SPA would (csrfmiddlewaretoken from the csrftoken cookie); answers the 302. */
export function startRedirect(server: Pick<TestServer, 'baseUrl'>, browser: ApiClient, fields: { provider: string; callback_url: string; process?: string }): Promise<Hop> {
  const form: Record<string, string> = { process: 'login', ...fields, csrfmiddlewaretoken: browser.cookies.get('csrftoken') ?? '' };
  return navigate(browser, `${server.baseUrl}/_service/browser/v1/auth/provider/redirect`, { form });
}

/**
 * Walks the provider's side in a cookie jar of its own, from the
 * authorization URL until the provider sends the browser back to `callbackPrefix`.
 */
export async function throughProvider(authorizationUrl: string, callbackPrefix: string): Promise<string> {
  const jar = new ApiClient(authorizationUrl, 'browser');
  let url = authorizationUrl;
  for (let hops = 0; hops < 10; hops++) {
    const hop = await navigate(jar, url);
    assert.ok(hop.location, `the provider answered ${hop.status} at ${url} without a redirect`);
    if (hop.location.startsWith(callbackPrefix)) return hop.location;
    url = hop.location;
  }
  throw new Error('the provider never sent the browser back');
}

/**
 * Starts the redirect flow, has the provider approve (or decline) it as
 * `approve` decides for its state, and answers the callback URL the provider
 * sends the browser to, not yet visited.
 */
export async function approvedCallback(
  server: Pick<TestServer, 'baseUrl'>,
  browser: ApiClient,
  fields: { provider: string; callback_url: string; process?: string },
  approve: (state: string) => void,
): Promise<{ authorization: URL; callback: string }> {
  const start = await startRedirect(server, browser, fields);
  assert.equal(start.status, 302);
  const authorization = new URL(start.location!);
  approve(authorization.searchParams.get('state')!);
  return { authorization, callback: await throughProvider(authorization.href, `${server.baseUrl}/accounts/`) };
}

/** The whole redirect flow at the OpenID provider for `sub` (or a refusal); answers where the browser lands. */
export async function redirectLogin(
  server: TestServer,
  idp: TestIdp,
  browser: ApiClient,
  fields: { provider: string; callback_url: string; process?: string },
  decision: { sub: string } | 'deny',
): Promise<URL> {
  const { authorization, callback } = await approvedCallback(server, browser, fields, (state) => idp.decide(state, decision));
  assert.ok(authorization.href.startsWith(idp.issuer), `expected a redirect to the provider, got ${authorization.href}`);
  const landing = await navigate(browser, callback);
  assert.equal(landing.status, 302);
  return new URL(landing.location!);
}
