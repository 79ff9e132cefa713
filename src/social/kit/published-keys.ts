import { createLocalJWKSet, importX509, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { isObject, request } from './api.js';

// A provider's signing keys at a URL that may publish them as a JWK Set or,
// as Google's v1 certs endpoint does (the reference's CERTS_URL default), as
// X.509 certificates in PEM by key id. Fetched on first use, again after ten
// minutes or when a token names a key not seen (at most every 30 s).

const MAX_AGE_MS = 10 * 60_000;
const COOLDOWN_MS = 30_000;

export function publishedKeys(url: string, timeoutSeconds: number, now: () => number): JWTVerifyGetKey {
  let document: Record<string, unknown> | null = null;
  let fetchedAt = -Infinity;
  const refresh = async () => {
    const answer = await request(url, { method: 'GET', headers: { accept: 'application/json' } }, timeoutSeconds);
    if (answer.status !== 200 || !isObject(answer.body)) throw new Error(`keys at ${url}: answered ${answer.status}`);
    document = answer.body;
    fetchedAt = now();
  };
  const known = (kid: string | undefined) => document !== null && (Array.isArray(document.keys) ? true : kid !== undefined && typeof document[kid] === 'string');
  return async (header, token) => {
    const age = now() - fetchedAt;
    if (age > MAX_AGE_MS || (!known(header.kid) && age > COOLDOWN_MS)) await refresh();
    const keys = document!;
    if (Array.isArray(keys.keys)) return createLocalJWKSet(keys as unknown as JSONWebKeySet)(header, token);
    const pem = header.kid === undefined ? undefined : keys[header.kid];
    if (typeof pem !== 'string') throw new Error(`keys at ${url}: no key ${String(header.kid)}`);
    return importX509(pem, header.alg);
  };
}
