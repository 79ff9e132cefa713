import { pkceMatches, startStandin, type Standin, type StandinRequest, type StandinResponse } from './standin.js';

// One loopback stand-in for every provider of the catalogue: each provider
// origin (https://api.spotify.com, ...) is served under /<host>/ here
// (SOCIALACCOUNT_PROVIDER_ORIGINS maps it), answering the token endpoint and
// the API calls a fixture names with the provider's documented example
// answers. Each request is checked as the provider would: the code, the
// client's credentials where the provider takes them, the PKCE verifier,
// and the access token where the provider wants it.

export interface FixtureCall {
  method: string;
  url: string;
  /** Where the access token must be: bearer, scheme:<Name>, query:<param>, header:<name>, form:<field> or none. */
  token: string;
  /** Headers the provider insists on (lower-case names). */
  headers?: Record<string, string>;
  response: unknown;
}

export interface Fixture {
  provider: string;
  /** Where the answers were taken from (the provider's API documentation). */
  source: string;
  /** Provider-level settings (upper-case keys). */
  settings?: Record<string, unknown>;
  app?: { settings?: Record<string, unknown>; key?: string };
  authorize: { url: string; scope: string; pkce: boolean; /** Parameters the request must carry ({redirect_uri} stands for ours). */ params?: Record<string, string>; clientIdParam?: string; callbackPath?: string; callbackProtocol?: 'https' };
  /** The callback's name for the code, when not `code` (DingTalk's authCode). */
  codeParam?: string;
  /** More query parameters the provider sends back with the code. */
  callback?: Record<string, string>;
  token: {
    url: string;
    method: string;
    /** post: client_id and client_secret in the form (or query); basic: HTTP Basic; custom: the provider's own exchange, checked by `fields`. */
    auth: 'post' | 'basic' | 'custom';
    /** Fields the exchange must carry (custom exchanges). */
    fields?: Record<string, string>;
    response: unknown;
    /** Headers the provider insists on (lower-case names). */
    headers?: Record<string, string>;
    /** Answers to other grants at the same endpoint (Facebook's app token). */
    grants?: Record<string, unknown>;
  };
  calls: FixtureCall[];
  expect: {
    uid: string;
    emails: Array<{ email: string; verified: boolean }>;
    username?: string;
    extra_data: unknown;
  };
}

/** The stand-in path of a provider URL: /<host><path>. */
export function standinPath(url: string): string {
  const parsed = new URL(url);
  return `/${parsed.host}${parsed.pathname}`;
}

export interface CatalogueStandin {
  url: string;
  standin: Standin;
  /** SOCIALACCOUNT_PROVIDER_ORIGINS for every origin of the fixtures. */
  origins(fixtures: readonly Fixture[]): Record<string, string>;
  /** Serves a fixture's endpoints, for one login with this code and PKCE challenge. */
  serve(fixture: Fixture, clientId: string, secret: string, expected: { code: string; redirectUri: string; challenge: string | null }): void;
  close(): Promise<void>;
}

function accessToken(fixture: Fixture): string {
  const raw = fixture.token.response as Record<string, unknown>;
  const nested = (raw.data ?? raw.response) as Record<string, unknown> | undefined;
  return String(raw.access_token ?? raw.accessToken ?? nested?.access_token);
}

function carriesToken(request: StandinRequest, placement: string, token: string): boolean {
  const [kind, name] = placement.split(':') as [string, string | undefined];
  switch (kind) {
    case 'bearer':
      return /^bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] === token;
    case 'scheme':
      return request.headers.authorization === `${name} ${token}`;
    case 'query':
      return request.url.searchParams.get(name!) === token;
    case 'header':
      return request.headers[name!.toLowerCase()] === token;
    case 'form':
      return request.body[name!] === token;
    case 'path':
      return request.url.pathname.includes(encodeURIComponent(token));
    default:
      return true;
  }
}

export async function startCatalogueStandin(): Promise<CatalogueStandin> {
  const standin = await startStandin();
  return {
    url: standin.url,
    standin,
    origins(fixtures) {
      const origins: Record<string, string> = {};
      for (const fixture of fixtures) {
        for (const url of [fixture.token.url, ...fixture.calls.map((c) => c.url)]) {
          const { origin, host } = new URL(url);
          origins[origin] = `${standin.url}/${host}`;
        }
      }
      return origins;
    },
    serve(fixture, clientId, secret, expected) {
      const token = accessToken(fixture);
      const refuse = (why: string): StandinResponse => ({ status: 400, json: { error: 'invalid_request', error_description: why } });
      standin.routes.set(`${fixture.token.method} ${standinPath(fixture.token.url)}`, (request) => {
        const fields = fixture.token.method === 'GET' ? Object.fromEntries(request.url.searchParams) : request.body;
        const grant = fields.grant_type;
        for (const [name, value] of Object.entries(fixture.token.headers ?? {})) if (request.headers[name] !== value) return refuse(`header ${name}`);
        if (grant && grant !== 'authorization_code' && fixture.token.grants?.[grant]) return { json: fixture.token.grants[grant] };
        if (fixture.token.auth === 'custom') {
          for (const [name, value] of Object.entries(fixture.token.fields ?? {})) {
            const wanted = value.replace('{code}', expected.code).replace('{client_id}', clientId).replace('{secret}', secret).replace('{redirect_uri}', expected.redirectUri);
            if (String(fields[name]) !== wanted) return refuse(`${name}: ${String(fields[name])}`);
          }
          return { json: fixture.token.response };
        }
        if (fields.code !== expected.code || fields.redirect_uri !== expected.redirectUri || grant !== 'authorization_code') return refuse('code, redirect_uri or grant_type');
        if (fixture.token.auth === 'basic') {
          if (request.headers.authorization !== `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`) return { status: 401, json: { error: 'invalid_client' } };
        } else if (fields.client_id !== clientId || fields.client_secret !== secret) return { status: 401, json: { error: 'invalid_client' } };
        // A GET exchange carries no verifier (the reference sends none there).
        if (fixture.token.method !== 'GET' && !pkceMatches(expected.challenge, fields.code_verifier)) return refuse('code_verifier');
        return { json: fixture.token.response };
      });
      for (const call of fixture.calls) {
        const wanted = new URL(call.url);
        standin.routes.set(`${call.method} ${standinPath(call.url)}`, (request) => {
          if (!carriesToken(request, call.token, token)) return { status: 401, json: { error: 'invalid_token' } };
          for (const [name, value] of Object.entries(call.headers ?? {})) if (request.headers[name] !== value) return refuse(`header ${name}`);
          for (const [name, value] of wanted.searchParams) {
            if (!request.url.searchParams.getAll(name).includes(value)) return refuse(`query ${name}`);
          }
          return { json: call.response };
        });
      }
    },
    close: () => standin.close(),
  };
}

