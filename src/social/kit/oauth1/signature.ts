import { createHmac, randomBytes } from 'node:crypto';

// OAuth 1.0a request signing (RFC 5849 section 3) with HMAC-SHA1, the
// method every OAuth 1 provider of the reference uses: the protocol
// parameters travel in the Authorization header; the signature covers them,
// the URL's query and a form body. Written out here rather than taken from a
// package: it is small, and none of the npm ones is maintained.

/** RFC 5849 3.6: every byte but the unreserved characters percent-encoded, hex in upper case. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** RFC 5849 3.4.1.2: scheme and host in lower case, the port only when not the scheme's default, the path; no query. */
function baseUri(url: URL): string {
  // URL already lower-cases the scheme and host and drops a default port.
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** RFC 5849 3.4.1: the method, the base URI and the normalised parameters, each encoded, joined with `&`. */
export function signatureBaseString(method: string, url: URL, parameters: ReadonlyArray<readonly [string, string]>): string {
  const pairs = [...url.searchParams, ...parameters]
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    // Sorted by encoded name, then encoded value (3.4.1.3.2); both are ASCII here, so code unit order is byte order.
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return [method.toUpperCase(), percentEncode(baseUri(url)), percentEncode(pairs)].join('&');
}

/** RFC 5849 3.4.2: HMAC-SHA1 keyed with the encoded client secret and token secret, base64. */
export function hmacSha1Signature(baseString: string, consumerSecret: string, tokenSecret: string): string {
  return createHmac('sha1', `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`).update(baseString).digest('base64');
}

export interface Credentials {
  consumerKey: string;
  consumerSecret: string;
  /** The request token or access token, absent for the request token call itself. */
  token?: string;
  tokenSecret?: string;
}

export interface SigningOptions {
  /** Form fields of the body, which the signature covers (none of our calls sends one). */
  form?: ReadonlyArray<readonly [string, string]>;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Defaults to a random one; fixed only by tests of the spec's examples. */
  nonce?: string;
}

/** The Authorization header of a request to `url` (its query included), signed with the credentials. */
export function authorizationHeader(method: string, url: URL, credentials: Credentials, options: SigningOptions): string {
  const protocol: Array<[string, string]> = [
    ['oauth_consumer_key', credentials.consumerKey],
    ['oauth_nonce', options.nonce ?? randomBytes(16).toString('hex')],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', String(options.timestamp)],
    ['oauth_version', '1.0'],
  ];
  if (credentials.token !== undefined) protocol.push(['oauth_token', credentials.token]);
  const base = signatureBaseString(method, url, [...protocol, ...(options.form ?? [])]);
  protocol.push(['oauth_signature', hmacSha1Signature(base, credentials.consumerSecret, credentials.tokenSecret ?? '')]);
  return `OAuth ${protocol.map(([name, value]) => `${percentEncode(name)}="${percentEncode(value)}"`).join(', ')}`;
}
