import { BlockList, isIP } from 'node:net';
import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { IdpRegistrationSettings } from '../config/idp-registration.js';
import type { IdpClientRecord } from '../store/idp-clients.js';
import { offeredScopes, parseRegistration, selfDescribedClient } from './registration-metadata.js';

// OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document,
// IDP_OIDC_CLIENT_ID_METADATA_DOCUMENTS): a client unknown here whose
// client_id is an https URL is described by the JSON document at that URL,
// as MCP clients do it. The document must name itself as client_id, is a
// public client (token_endpoint_auth_method `none`, PKCE then required), and
// passes the rules of a registered client (registration-metadata.ts).
//
// Fetching a URL a stranger chose is guarded: https only, no redirects, at
// most 5 KiB in 5 seconds, and never from a loopback, private, link-local
// or otherwise internal address, judged on the address connected to (so a
// DNS name cannot point there either) unless
// IDP_OIDC_CLIENT_ID_METADATA_DOCUMENT_PRIVATE_HOSTS allows it (then, on
// such addresses, http too: for development). A document is cached for its
// Cache-Control max-age, kept between one minute and one day.

const MAX_BYTES = 5 * 1024;
const TIMEOUT_MS = 5000;
const MIN_AGE = 60;
const DEFAULT_AGE = 300;
const MAX_AGE = 86400;
const CACHE_SIZE = 500;

const INTERNAL = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3]] as const) INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['100::', 64]] as const) INTERNAL.addSubnet(net, prefix, 'ipv6');

/** Whether an address is one a document may not be fetched from (IPv4-mapped IPv6 judged as the IPv4 it is). */
export function internalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  return INTERNAL.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** The draft's section 3: https, a path, no fragment, no credentials, no dot segments. Null when the id is no such URL. */
export function clientIdUrl(id: string, allowHttp: boolean): URL | null {
  if (!/^https?:\/\//i.test(id) || /[\s\\]/.test(id) || id.includes('#') || id.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return null;
  if (url.username || url.password || url.pathname === '/') return null;
  const rawPath = id.slice(id.indexOf('/', id.indexOf('//') + 2)).split('?')[0]!;
  if (rawPath.split('/').some((segment) => ['.', '..'].includes(segment.replace(/%2e/gi, '.')))) return null;
  return url;
}

class Refused extends Error {}

interface Fetched {
  body: unknown;
  maxAge: number;
}

function maxAgeOf(response: IncomingMessage): number {
  const match = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(String(response.headers['cache-control'] ?? ''));
  const age = match ? Number(match[1]) : DEFAULT_AGE;
  return Math.min(MAX_AGE, Math.max(MIN_AGE, age));
}

function fetchDocument(url: URL, privateHosts: boolean): Promise<Fetched> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && internalAddress(host) && !privateHosts) return Promise.reject(new Refused(`${host} is an internal address`));
  if (url.protocol === 'http:' && !(isIP(host) ? internalAddress(host) : host === 'localhost')) return Promise.reject(new Refused('http is only for internal addresses'));
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        timeout: TIMEOUT_MS,
        // Names are judged on every address they resolve to, at the connection.
        lookup: (hostname, options, callback) =>
          lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
            if (error) return callback(error, '', 0);
            if (!privateHosts && addresses.some((a) => internalAddress(a.address))) return callback(new Refused(`${hostname} resolves to an internal address`), '', 0);
            if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
            callback(null, addresses[0]!.address, addresses[0]!.family);
          }),
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new Refused(`the document answered ${response.statusCode}`));
        }
        if (!/\bjson\b/i.test(String(response.headers['content-type'] ?? ''))) {
          response.resume();
          return reject(new Refused('the document is not JSON'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const tooLarge = (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BYTES) return void chunks.push(chunk);
          // Refused here, once: chunks already read still arrive, and an error given to destroy() would be emitted again where nobody listens.
          response.off('data', tooLarge);
          reject(new Refused(`the document is larger than ${MAX_BYTES} bytes`));
          request.destroy();
        };
        response.on('data', tooLarge);
        response.on('end', () => {
          try {
            resolve({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), maxAge: maxAgeOf(response) });
          } catch {
            reject(new Refused('the document is not JSON'));
          }
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => {
      reject(new Refused(`no document within ${TIMEOUT_MS} ms`));
      request.destroy();
    });
    request.on('error', reject);
    request.end();
  });
}

/** The client a document describes, or why it is refused. */
export function documentClient(id: string, url: URL, body: unknown, offeredScopes: readonly string[], now: number): IdpClientRecord | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the document is not a JSON object';
  const doc = body as Record<string, unknown>;
  if (doc.client_id !== id) return 'the document\'s client_id is not its URL';
  if ('client_secret' in doc || 'client_secret_expires_at' in doc) return 'a document cannot carry a client secret';
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') return `token_endpoint_auth_method "${String(method)}" is not supported for documents; use none`;
  const parsed = parseRegistration({ ...doc, token_endpoint_auth_method: 'none' }, offeredScopes);
  if (!parsed.ok) return parsed.description;
  // The consent page shows the name: the host it is published on goes with it, which the document cannot choose.
  const name = typeof doc.client_name === 'string' ? `${parsed.value.fields.name} (${url.host})` : url.host;
  return selfDescribedClient({ ...parsed.value.fields, name }, id, null, now);
}

export interface MetadataDocumentDeps {
  settings: IdpRegistrationSettings;
  now: () => number;
  offeredScopes: readonly string[];
  /** Told why a document was refused (the provider then answers invalid_client). */
  refused(clientId: string, reason: string): void;
}

/** Finds the client a URL client_id describes: from the cache, or fetched (one fetch at a time per URL). */
export function metadataDocumentClients(deps: MetadataDocumentDeps): (id: string) => Promise<IdpClientRecord | null> {
  const cache = new Map<string, { client: IdpClientRecord; until: number }>();
  const inFlight = new Map<string, Promise<IdpClientRecord | null>>();
  const privateHosts = deps.settings.clientIdMetadataDocumentPrivateHosts;

  async function load(id: string, url: URL): Promise<IdpClientRecord | null> {
    try {
      const fetched = await fetchDocument(url, privateHosts);
      const client = documentClient(id, url, fetched.body, deps.offeredScopes, deps.now());
      if (typeof client === 'string') {
        deps.refused(id, client);
        return null;
      }
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(id, { client, until: deps.now() + fetched.maxAge * 1000 });
      return client;
    } catch (error) {
      deps.refused(id, error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  return async (id) => {
    const url = clientIdUrl(id, privateHosts);
    if (!url) return null;
    const cached = cache.get(id);
    if (cached && cached.until > deps.now()) return cached.client;
    cache.delete(id);
    let pending = inFlight.get(id);
    if (!pending) {
      pending = load(id, url).finally(() => inFlight.delete(id));
      inFlight.set(id, pending);
    }
    return pending;
  };
}

/** The provider's lookup when IDP_OIDC_CLIENT_ID_METADATA_DOCUMENTS is on (undefined when off); a refused document is logged with its reason. */
export function metadataDocumentLookup(settings: IdpRegistrationSettings, now: () => number, logError: (error: unknown, message: string) => void) {
  if (!settings.clientIdMetadataDocuments) return undefined;
  return metadataDocumentClients({ settings, now, offeredScopes: offeredScopes(settings), refused: (clientId, reason) => logError(new Error(reason), `client ID metadata document of ${clientId} refused`) });
}
