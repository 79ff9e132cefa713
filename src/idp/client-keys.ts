import { createPublicKey, type JsonWebKey } from 'node:crypto';
import type { IdpClientJwks } from '../store/idp-clients.js';

// The public keys a private_key_jwt client signs its assertions with
// (RFC 7523): a JWK Set registered inline, or the URL the provider fetches
// it from. Each is checked when the client is registered, so that a typo,
// a private key pasted by mistake or a key no allowed algorithm can use is
// refused there, not at the client's first token request.

/** The assertion algorithms the token endpoint accepts (CLIENT_AUTH_SIGNING_ALGS in client-auth-methods.ts). */
export const ASSERTION_ALGS = ['RS256', 'PS256', 'ES256', 'Ed25519', 'EdDSA'] as const;

/** Members that only a private or a symmetric key has (RFC 7518 section 6). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** The algorithms a key of this type can sign with, among ASSERTION_ALGS. */
function algsFor(jwk: Record<string, unknown>): readonly string[] {
  if (jwk.kty === 'RSA') return ['RS256', 'PS256'];
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return ['ES256'];
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return ['Ed25519', 'EdDSA'];
  return [];
}

function keyProblem(jwk: unknown, at: string): string | null {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return `${at} is not a JSON object`;
  const key = jwk as Record<string, unknown>;
  const secret = PRIVATE_MEMBERS.find((member) => member in key);
  if (secret) return `${at} is a private or symmetric key (it has "${secret}"): register the public key only`;
  const algs = algsFor(key);
  if (algs.length === 0) return `${at}: a key of type RSA, EC P-256 or OKP Ed25519 is needed (allowed algorithms: ${ASSERTION_ALGS.join(', ')})`;
  if (key.alg !== undefined && !algs.includes(key.alg as string)) return `${at}: alg "${String(key.alg)}" is not allowed for this key; allowed: ${algs.join(', ')}`;
  if (key.use !== undefined && key.use !== 'sig') return `${at}: use must be "sig"`;
  if (key.kid !== undefined && (typeof key.kid !== 'string' || key.kid.length === 0)) return `${at}: kid must be a non-empty string`;
  let parsed;
  try {
    parsed = createPublicKey({ key: key as JsonWebKey, format: 'jwk' });
  } catch {
    return `${at} is not a valid public key`;
  }
  if (key.kty === 'RSA' && (parsed.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) return `${at}: an RSA key of at least 2048 bits is needed`;
  return null;
}

/** Why a JWK Set cannot be registered, or null when it can. */
export function jwksProblem(jwks: unknown): string | null {
  if (typeof jwks !== 'object' || jwks === null || !Array.isArray((jwks as IdpClientJwks).keys)) return 'a JWK Set: {"keys": [...]}';
  const { keys } = jwks as IdpClientJwks;
  if (keys.length === 0 || keys.length > 10) return 'a JWK Set of 1 to 10 keys';
  for (const [i, key] of keys.entries()) {
    const problem = keyProblem(key, `keys[${i}]`);
    if (problem) return problem;
  }
  const kids = keys.map((key) => key.kid).filter((kid) => kid !== undefined);
  if (new Set(kids).size !== kids.length) return 'each key needs a kid of its own';
  return null;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a URL names this machine (http is allowed there outside production). */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** Why a jwks_uri cannot be registered, or null: https, or http on loopback outside production. */
export function jwksUriProblem(value: string, production: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'an https URL';
  }
  if (url.hash || url.username || url.password) return 'an https URL without fragment or credentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackUrl(url) && !production) return null;
  return production ? 'an https URL' : 'an https URL (http only on this machine\'s loopback address, outside production)';
}
