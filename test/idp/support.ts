import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import * as oidc from 'openid-client';
import type { TestServer } from '../support/server.js';
import { readyClient, signedUp } from '../support/accounts.js';
import type { ApiClient } from '../support/client.js';
import { createIdpClient, type IdpClientInput } from '../../src/flows/admin/idp-clients.js';
import { cliSource } from '../../src/audit/recorder.js';

// The OpenID provider's suites: a server with IDP_OIDC_ENABLED, clients
// registered through the admin flow the CLI uses, openid-client as the
// relying party, and a browser stand-in that follows the provider's
// redirects with a cookie jar (the Chromium suite uses a real browser).

export const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

export const IDP_ENV: Record<string, string> = {
  IDP_OIDC_ENABLED: 'true',
  IDP_OIDC_PRIVATE_KEY: PRIVATE_KEY,
  ACCOUNT_EMAIL_VERIFICATION: 'none',
  FRONTEND_URL: 'http://spa.test',
  // Device user codes are limited per IP, and every test comes from 127.0.0.1 (device.test.ts checks the limit).
  IDP_OIDC_RATE_LIMITS: 'false',
};

export const REDIRECT_URI = 'http://rp.test/callback';

export async function registerClient(server: TestServer, input: Partial<IdpClientInput> = {}): Promise<{ id: string; secret: string | null }> {
  const result = await createIdpClient(
    server.app.deps,
    cliSource(server.clock.now()),
    { name: 'Relying party', redirectUris: [REDIRECT_URI], scopes: ['openid', 'profile', 'email', 'phone', 'offline_access'], grantTypes: ['authorization_code', 'refresh_token'], ...input },
  );
  assert.ok(result.ok, JSON.stringify(result));
  return { id: result.client.id, secret: result.secret };
}

/** openid-client configured from our discovery document. */
export async function relyingParty(server: TestServer, client: { id: string; secret: string | null }, auth: 'basic' | 'post' | 'none' = client.secret ? 'basic' : 'none'): Promise<oidc.Configuration> {
  const method = auth === 'none' ? oidc.None() : auth === 'basic' ? oidc.ClientSecretBasic(client.secret!) : oidc.ClientSecretPost(client.secret!);
  return oidc.discovery(new URL(server.baseUrl), client.id, undefined, method, { execute: [oidc.allowInsecureRequests] });
}

/** A browser with our session: signed up and logged in through the browser API (a new browser, or the one given). */
export async function loggedInBrowser(server: TestServer, browser?: ApiClient): Promise<{ api: ApiClient; email: string }> {
  const api = browser ?? (await readyClient(server, 'browser'));
  const { email, password } = await signedUp(api);
  // Signing up proves no method (as in the reference); a login does.
  assert.equal((await api.delete('/auth/session')).status, 401);
  const login = await api.post('/auth/login', { email, password });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return { api, email };
}

export interface Navigation {
  /** Where the browser ended: the first URL off the server (the client's redirect URI, the SPA's login page). */
  url: URL;
  /** The last page the server rendered, when the chain stopped on one. */
  page?: { status: number; html: string; url: URL; headers: Headers };
}

/**
 * Follows redirects from `start` as a browser with `jar`'s cookies does,
 * until the chain leaves the server or stops on a page of its own.
 */
export async function navigate(server: TestServer, jar: ApiClient, start: string | URL, init: { method?: string; form?: Record<string, string> } = {}): Promise<Navigation> {
  let url = new URL(start, server.baseUrl);
  let method = init.method ?? 'GET';
  let body: string | undefined = init.form ? new URLSearchParams(init.form).toString() : undefined;
  for (let hops = 0; hops < 20; hops++) {
    if (url.origin !== server.baseUrl) return { url };
    const headers: Record<string, string> = { cookie: jar.cookieHeader };
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    jar.absorbCookies(response.headers);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      method = 'GET';
      body = undefined;
      continue;
    }
    return { url, page: { status: response.status, html: await response.text(), url, headers: response.headers } };
  }
  throw new Error('too many redirects');
}

/** The consent form's action and CSRF token, from the page. */
export function consentForm(html: string): { action: string; csrf: string } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(action && csrf, `no consent form in: ${html.slice(0, 300)}`);
  return { action: action.replaceAll('&amp;', '&'), csrf };
}

/** Runs an authorization request through login (the jar's session) and consent; answers where the browser lands. */
export async function authorize(server: TestServer, jar: ApiClient, url: URL, decision: 'allow' | 'deny' | 'none' = 'allow'): Promise<URL> {
  const first = await navigate(server, jar, url);
  if (!first.page) return first.url;
  assert.equal(first.page.status, 200, first.page.html.slice(0, 500));
  assert.notEqual(decision, 'none', 'a consent page was shown');
  const form = consentForm(first.page.html);
  const after = await navigate(server, jar, form.action, { method: 'POST', form: { csrf: form.csrf, decision } });
  assert.equal(after.page, undefined, after.page?.html.slice(0, 500));
  return after.url;
}

/** An authorization code flow with PKCE (and state and nonce), from the URL to the tokens. */
export async function codeFlow(server: TestServer, rp: oidc.Configuration, jar: ApiClient, params: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...params,
  });
  const callback = await authorize(server, jar, url);
  const tokens = await oidc.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  return { tokens, callback, verifier, state, nonce };
}
