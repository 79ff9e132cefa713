import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { startStandin, type Standin, type StandinRequest, type StandinResponse } from './standin.js';

// An OAuth 1.0a provider on loopback (RFC 5849): temporary credentials,
// the authorize page (approved or declined as the test decided for the
// token), token credentials for a verifier, and API routes that answer only
// requests signed with the consumer's and the user's secrets. The signature
// check is written from the RFC on the server's side (it rebuilds the base
// string from the request as received), apart from the server's signing
// code, so that a mistake there cannot hide behind the same mistake here.

/** RFC 3986 percent-encoding of UTF-8 bytes: unreserved characters stay, the rest %XX. */
function encode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** application/x-www-form-urlencoded decoding, as RFC 5849 3.4.1.3.1 reads a query or body. */
function decodePairs(text: string): Array<[string, string]> {
  if (!text) return [];
  return text.split('&').map((pair) => {
    const [name = '', value = ''] = pair.split(/=(.*)/s);
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return [decode(name), decode(value)];
  });
}

/** The parameters of an `Authorization: OAuth k="v", ...` header (realm dropped). */
function headerParams(header: string | undefined): Map<string, string> | null {
  if (!header?.startsWith('OAuth ')) return null;
  const params = new Map<string, string>();
  for (const match of header.slice(6).matchAll(/([A-Za-z0-9_%.-]+)="([^"]*)"/g)) {
    params.set(decodeURIComponent(match[1]!), decodeURIComponent(match[2]!));
  }
  params.delete('realm');
  return params;
}

export interface SignedBy {
  consumerKey: string;
  token: string | undefined;
  params: Map<string, string>;
}

export interface OAuth1Standin {
  url: string;
  standin: Standin;
  /** Who approves the authorization of this request token (a user key), or 'deny'. */
  decide(requestToken: string, user: string | 'deny'): void;
  /** A route that answers only a request signed with the user's access token; `answer` gets the user key. */
  signedRoute(method: 'GET' | 'POST', path: string, answer: (user: string, request: StandinRequest) => StandinResponse): void;
  /** Requests refused for a bad signature, so a test can tell a refusal from a request never made. */
  refused: string[];
  close(): Promise<void>;
}

export interface OAuth1StandinOptions {
  requestTokenPath: string;
  authorizePath: string;
  accessTokenPath: string;
  /** consumer key → consumer secret */
  consumers: Map<string, string>;
  /** Fields the access token answer adds (X: user_id and screen_name). */
  accessFields?: (user: string) => Record<string, string>;
  /** What the provider sends back on a refusal: X sends `denied=<token>`. */
  denyParam?: string;
  /** The origin signatures are made for, when the server reaches this stand-in in its place (SOCIALACCOUNT_PROVIDER_ORIGINS). */
  signedOrigin?: string;
}

export async function startOAuth1Standin(options: OAuth1StandinOptions): Promise<OAuth1Standin> {
  const standin = await startStandin();
  const refused: string[] = [];
  const decisions = new Map<string, string>();
  const temporary = new Map<string, { consumerKey: string; secret: string; callback: string; verifier?: string; user?: string }>();
  const access = new Map<string, { consumerKey: string; secret: string; user: string }>();
  const nonces = new Set<string>();

  /** RFC 5849 3.2: the signature, against the consumer's secret and the token's; null when it does not hold. */
  function verify(request: StandinRequest, raw: { query: string; tokenSecret: (token: string) => string | undefined }): SignedBy | null {
    const protocol = headerParams(request.headers.authorization);
    const consumerKey = protocol?.get('oauth_consumer_key');
    const consumerSecret = consumerKey === undefined ? undefined : options.consumers.get(consumerKey);
    const signature = protocol?.get('oauth_signature');
    if (!protocol || consumerSecret === undefined || !signature) return null;
    if (protocol.get('oauth_signature_method') !== 'HMAC-SHA1' || !protocol.get('oauth_timestamp')) return null;
    // A nonce is good once (3.3).
    const nonce = `${protocol.get('oauth_timestamp')}:${protocol.get('oauth_nonce')}`;
    if (!protocol.get('oauth_nonce') || nonces.has(nonce)) return null;
    const token = protocol.get('oauth_token');
    const tokenSecret = token === undefined ? '' : raw.tokenSecret(token);
    if (tokenSecret === undefined) return null;
    const params = [...protocol].filter(([name]) => name !== 'oauth_signature');
    const form = (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') ? Object.entries(request.body) : [];
    const normalized = [...decodePairs(raw.query), ...params, ...form]
      .map(([n, v]) => [encode(n), encode(v)])
      // By name, then by value (3.4.1.3.2), not as joined text: `a2=` sorts before `a=` that way.
      .sort(([a, x], [b, y]) => (a === b ? (x! < y! ? -1 : 1) : a! < b! ? -1 : 1))
      .map(([n, v]) => `${n}=${v}`)
      .join('&');
    const base = `${request.method}&${encode(`${options.signedOrigin ?? `http://${request.headers.host}`}${request.url.pathname}`)}&${encode(normalized)}`;
    const expected = createHmac('sha1', `${encode(consumerSecret)}&${encode(tokenSecret)}`).update(base).digest();
    const given = Buffer.from(signature, 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    nonces.add(nonce);
    return { consumerKey: consumerKey!, token, params: protocol };
  }
  const rawQuery = (request: StandinRequest) => request.url.search.slice(1);
  const unauthorized = (request: StandinRequest): StandinResponse => {
    refused.push(`${request.method} ${request.url.pathname}`);
    return { status: 401, html: 'Invalid signature' };
  };
  const form = (fields: Record<string, string>): StandinResponse => ({ html: new URLSearchParams(fields).toString() });

  standin.routes.set(`POST ${options.requestTokenPath}`, (request) => {
    const signed = verify(request, { query: rawQuery(request), tokenSecret: () => undefined });
    const callback = request.url.searchParams.get('oauth_callback') ?? signed?.params.get('oauth_callback');
    if (!signed || signed.token !== undefined || !callback) return unauthorized(request);
    const token = randomBytes(12).toString('hex');
    const secret = randomBytes(12).toString('hex');
    temporary.set(token, { consumerKey: signed.consumerKey, secret, callback });
    return form({ oauth_token: token, oauth_token_secret: secret, oauth_callback_confirmed: 'true' });
  });
  standin.routes.set(`GET ${options.authorizePath}`, ({ url }) => {
    const token = url.searchParams.get('oauth_token') ?? '';
    const pending = temporary.get(token);
    if (!pending) return { status: 400, html: 'Unknown request token' };
    const back = new URL(pending.callback);
    const user = decisions.get(token);
    if (!user || user === 'deny') {
      back.searchParams.set(options.denyParam ?? 'denied', token);
      return { redirect: back.toString() };
    }
    pending.user = user;
    pending.verifier = randomBytes(8).toString('hex');
    back.searchParams.set('oauth_token', token);
    back.searchParams.set('oauth_verifier', pending.verifier);
    return { redirect: back.toString() };
  });
  standin.routes.set(`POST ${options.accessTokenPath}`, (request) => {
    const signed = verify(request, { query: rawQuery(request), tokenSecret: (token) => temporary.get(token)?.secret });
    const pending = signed?.token === undefined ? undefined : temporary.get(signed.token);
    const verifier = request.url.searchParams.get('oauth_verifier') ?? signed?.params.get('oauth_verifier');
    if (!signed || !pending || pending.consumerKey !== signed.consumerKey || !pending.user || verifier !== pending.verifier) return unauthorized(request);
    // Temporary credentials are good for one exchange.
    temporary.delete(signed.token!);
    const token = `${randomBytes(4).readUInt32BE()}-${randomBytes(12).toString('hex')}`;
    const secret = randomBytes(16).toString('hex');
    access.set(token, { consumerKey: signed.consumerKey, secret, user: pending.user });
    return form({ oauth_token: token, oauth_token_secret: secret, ...options.accessFields?.(pending.user) });
  });

  return {
    url: standin.url,
    standin,
    refused,
    decide: (token, user) => void decisions.set(token, user),
    signedRoute(method, path, answer) {
      standin.routes.set(`${method} ${path}`, (request) => {
        const signed = verify(request, { query: rawQuery(request), tokenSecret: (token) => access.get(token)?.secret });
        const holder = signed?.token === undefined ? undefined : access.get(signed.token);
        if (!signed || !holder || holder.consumerKey !== signed.consumerKey) return unauthorized(request);
        return answer(holder.user, request);
      });
    },
    close: () => standin.close(),
  };
}
