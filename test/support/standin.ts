import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

// The common part of the providers' stand-ins (GitHub, Apple, Microsoft, ...,
// which cannot be reached from here): a loopback HTTP server with routes,
// form and JSON bodies, and an RSA key to sign ID tokens with.

export interface StandinRequest {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  /** Form or JSON body as an object of strings. */
  body: Record<string, string>;
}

export interface StandinResponse {
  status?: number;
  json?: unknown;
  html?: string;
  redirect?: string;
}

export type Route = (request: StandinRequest) => StandinResponse | Promise<StandinResponse>;

export interface Standin {
  url: string;
  /** `METHOD /path` → handler; paths match exactly. */
  routes: Map<string, Route>;
  /** Every request seen, most recent last. */
  seen: StandinRequest[];
  signIdToken(claims: JWTPayload): Promise<string>;
  jwks(): Promise<{ keys: object[] }>;
  close(): Promise<void>;
}

export async function startStandin(): Promise<Standin> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const routes = new Map<string, Route>();
  const seen: StandinRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const type = req.headers['content-type'] ?? '';
    const body = type.startsWith('application/json') ? (JSON.parse(raw || '{}') as Record<string, string>) : Object.fromEntries(new URLSearchParams(raw));
    const request = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', standin.url), headers: req.headers, body };
    seen.push(request);
    const route = routes.get(`${request.method} ${request.url.pathname}`);
    const answer = route ? await route(request) : { status: 404, json: { message: 'Not Found' } };
    if (answer.redirect) {
      res.writeHead(answer.status ?? 302, { location: answer.redirect }).end();
    } else if (answer.html !== undefined) {
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/html; charset=utf-8' }).end(answer.html);
    } else {
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json ?? {}));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const standin: Standin = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routes,
    seen,
    signIdToken: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey),
    jwks: async () => ({ keys: [{ ...publicJwk, kid, alg: 'RS256', use: 'sig' }] }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standin;
}

/** A one-time authorization code and what it was issued for. */
export interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
  user: string;
}

/** Issues random codes and tokens, each remembered with what it stands for. */
export class Ledger<T> {
  readonly #entries = new Map<string, T>();
  issue(value: T): string {
    const key = randomBytes(16).toString('hex');
    this.#entries.set(key, value);
    return key;
  }
  /** The value of a one-time key, which is then gone. */
  redeem(key: string | undefined): T | undefined {
    const value = key === undefined ? undefined : this.#entries.get(key);
    if (key !== undefined) this.#entries.delete(key);
    return value;
  }
  get(key: string | undefined): T | undefined {
    return key === undefined ? undefined : this.#entries.get(key);
  }
}

/** The bearer token of a request (`Bearer x` or GitHub's `token x`). */
export function bearer(request: StandinRequest): string | undefined {
  return /^(?:Bearer|token) (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
}


/** Whether a PKCE verifier matches its S256 challenge (or no challenge was sent and no verifier is). */
export function pkceMatches(challenge: string | null, verifier: string | undefined): boolean {
  if (challenge === null) return verifier === undefined;
  return verifier !== undefined && createHash('sha256').update(verifier).digest('base64url') === challenge;
}

export interface OAuthEndpoints {
  /** Who approves the authorization request with this state (a user key), or 'deny'. */
  decide(state: string, user: string | 'deny'): void;
  /** Access tokens issued (by the code exchange, or as another app's by issueToken), with their user and client. */
  tokens: Ledger<{ user: string; clientId: string }>;
  issueToken(user: string, clientId: string): string;
}

/**
 * The authorization and token endpoints of an OAuth 2 provider on a stand-in:
 * the authorization request is approved (or declined) as the test decided
 * for its state; the code is redeemed once, by the client it was issued to,
 * with its redirect URI and PKCE verifier. `refuse` shapes the answer to a
 * bad code (GitHub's is a 200 with an error field).
 */
export function oauthEndpoints(
  standin: Standin,
  options: {
    authorizePath: string;
    tokenPath: string;
    clients: Map<string, string>;
    refuse?: StandinResponse;
    /** Extra fields of a token response, e.g. an ID token. */
    extra?: (code: IssuedCode) => Promise<Record<string, unknown>> | Record<string, unknown>;
  },
): OAuthEndpoints {
  const decisions = new Map<string, string>();
  const codes = new Ledger<IssuedCode>();
  const tokens = new Ledger<{ user: string; clientId: string }>();
  standin.routes.set(`GET ${options.authorizePath}`, ({ url }) => {
    const q = url.searchParams;
    const redirect = new URL(q.get('redirect_uri')!);
    redirect.searchParams.set('state', q.get('state') ?? '');
    const user = decisions.get(q.get('state') ?? '');
    if (!user || user === 'deny' || !options.clients.has(q.get('client_id') ?? '')) redirect.searchParams.set('error', 'access_denied');
    else redirect.searchParams.set('code', codes.issue({ clientId: q.get('client_id')!, redirectUri: q.get('redirect_uri')!, codeChallenge: q.get('code_challenge'), user }));
    return { redirect: redirect.toString() };
  });
  standin.routes.set(`POST ${options.tokenPath}`, async ({ body }) => {
    const code = codes.redeem(body.code);
    const valid =
      code &&
      options.clients.get(body.client_id ?? '') === body.client_secret &&
      code.clientId === body.client_id &&
      code.redirectUri === body.redirect_uri &&
      pkceMatches(code.codeChallenge, body.code_verifier);
    if (!valid) return options.refuse ?? { status: 400, json: { error: 'invalid_grant' } };
    const accessToken = tokens.issue({ user: code.user, clientId: code.clientId });
    return { json: { access_token: accessToken, token_type: 'bearer', expires_in: 3600, ...(await options.extra?.(code)) } };
  });
  return {
    decide: (state, user) => void decisions.set(state, user),
    tokens,
    issueToken: (user, clientId) => tokens.issue({ user, clientId }),
  };
}
