import type { ProviderContext, ProviderTokens } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { isObject } from './api.js';
import { providerFetch } from './provider-api.js';

// The code exchange of the catalogue's OAuth 2 providers, as the reference
// makes it: a form with redirect_uri, grant_type, code and the client's
// credentials (in the form, or HTTP Basic), the PKCE verifier when one was
// sent; GET with the same fields in the query for the providers that want it
// (Facebook, LinkedIn; no verifier then). 200 or 201; the answer is JSON, or a
// form-encoded body, and must hold an access_token.

export interface TokenAnswer {
  /** The token endpoint's answer as parsed (some providers put the user in it). */
  raw: Record<string, unknown>;
  tokens: ProviderTokens;
}

export interface TokenEndpoint {
  /** PUT: Pinterest's v3. */
  method?: 'GET' | 'POST' | 'PUT';
  /** Where the client's credentials go: the form (default) or HTTP Basic. */
  auth?: 'post' | 'basic';
  headers?: Record<string, string>;
}

/** A token answer as the reference reads it: JSON when it looks like JSON, else a form. */
export function parseTokenBody(text: string, type: string): Record<string, unknown> {
  if (type.includes('json') || text.trimStart().startsWith('{')) {
    try {
      const body: unknown = JSON.parse(text);
      return isObject(body) ? body : {};
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** The tokens of a parsed answer; a missing access_token is a ProviderError. */
export function tokenAnswer(context: ProviderContext, raw: Record<string, unknown>, fields = { access: 'access_token', refresh: 'refresh_token', expiresIn: 'expires_in' }): TokenAnswer {
  const accessToken = raw[fields.access];
  if (typeof accessToken !== 'string' || accessToken === '') throw new ProviderError('the token endpoint answered without an access_token');
  const refresh = raw[fields.refresh];
  const expiresIn = Number(raw[fields.expiresIn]);
  return {
    raw,
    tokens: {
      accessToken,
      refreshToken: typeof refresh === 'string' && refresh !== '' ? refresh : null,
      expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? context.now() + expiresIn * 1000 : null,
    },
  };
}

/** POSTs (or GETs) `fields` to a token endpoint; the parsed answer of a 200 or 201. */
export async function tokenRequest(context: ProviderContext, url: string, endpoint: TokenEndpoint, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { accept: 'application/json', ...endpoint.headers };
  const data = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
  if (endpoint.auth === 'basic') {
    const { app } = context;
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.secret)}`).toString('base64')}`;
  }
  let target = url;
  let body: string | undefined;
  if (endpoint.method === 'GET') {
    const withQuery = new URL(url);
    for (const [name, value] of Object.entries(data)) withQuery.searchParams.set(name, value);
    target = withQuery.toString();
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(data).toString();
  }
  const answer = await providerFetch(context, target, { method: endpoint.method ?? 'POST', headers, body });
  if (answer.status !== 200 && answer.status !== 201) throw new ProviderError(`the token endpoint answered ${answer.status}`);
  return parseTokenBody(answer.text, answer.type);
}

export interface CodeInput {
  code: string;
  redirectUri: string;
  codeVerifier: string | null;
}

/** The standard exchange; `extra` adds fields a provider wants beside them (VK's device_id). */
export async function redeemCode(context: ProviderContext, url: string, endpoint: TokenEndpoint, input: CodeInput, extra: Record<string, string> = {}): Promise<TokenAnswer> {
  const { app } = context;
  const fields: Record<string, string> = { redirect_uri: input.redirectUri, grant_type: 'authorization_code', code: input.code, ...extra };
  if (endpoint.auth !== 'basic') Object.assign(fields, { client_id: app.clientId, client_secret: app.secret });
  if (input.codeVerifier && endpoint.method !== 'GET') fields.code_verifier = input.codeVerifier;
  return tokenAnswer(context, await tokenRequest(context, url, endpoint, fields));
}
