import { createPrivateKey, hkdfSync, webcrypto } from 'node:crypto';
import { calculateJwkThumbprint, importJWK, type JWK } from 'jose';
import { ConfigError } from '../config/env.js';
import type { JwtAlgorithm, JwtSettings } from '../config/tokens.js';

// JWT keys, imported once at start-up: verifying on the hot path never
// re-parses a PEM or a secret. A ring, for rotation: the current key signs,
// and it and every fallback verify until the fallback is removed.

export interface VerificationKey {
  /** The RFC 7638 thumbprint of the key (of the public key for RS*). */
  kid: string;
  key: CryptoKey;
}

export interface SigningKeys {
  algorithm: JwtAlgorithm;
  signingKey: CryptoKey;
  /** RS*: the current key's thumbprint, set in every token's header as the reference does; HS*: none. */
  kid: string | undefined;
  /** The current key first, then the fallbacks. */
  verificationKeys: readonly VerificationKey[];
  /** RS*: the public JWK Set resource servers verify with, fallbacks included; null for HS* (a shared secret). */
  jwks: { keys: JWK[] } | null;
}

/**
 * `secretKeys` is [SECRET_KEY, ...SECRET_KEY_FALLBACKS]. When
 * HEADLESS_JWT_PRIVATE_KEY is unset, HS* signs with a key derived from
 * SECRET_KEY for JWTs alone (and rotates with it): SECRET_KEY itself also
 * signs reset keys, CSRF tokens and trust cookies and seals secrets at rest,
 * so it must never be the key a resource server is handed.
 */
export async function loadSigningKeys(settings: JwtSettings, secretKeys: readonly string[]): Promise<SigningKeys> {
  const { algorithm } = settings;
  if (algorithm === 'HS256' || algorithm === 'HS512') {
    const hash = algorithm === 'HS256' ? 'SHA-256' : 'SHA-512';
    const ring = settings.privateKey
      ? [settings.privateKey, ...settings.privateKeyFallbacks].map((secret) => Buffer.from(secret, 'utf8'))
      : [...secretKeys.map((secret) => derivedJwtSecret(secret, algorithm)), ...settings.privateKeyFallbacks.map((secret) => Buffer.from(secret, 'utf8'))];
    const keys = await Promise.all(
      ring.map(async (raw) => {
        const key = (await webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash }, false, ['sign', 'verify'])) as CryptoKey;
        return { kid: await calculateJwkThumbprint({ kty: 'oct', k: raw.toString('base64url') }, 'sha256'), key };
      }),
    );
    return { algorithm, signingKey: keys[0]!.key, kid: undefined, verificationKeys: distinct(keys), jwks: null };
  }
  if (!settings.privateKey) {
    throw new ConfigError(`HEADLESS_JWT_PRIVATE_KEY is required for HEADLESS_JWT_ALGORITHM=${algorithm}`);
  }
  const pairs = await Promise.all(
    [settings.privateKey, ...settings.privateKeyFallbacks].map(async (pem) => {
      const privateJwk = createPrivateKey(pem).export({ format: 'jwk' }) as JWK;
      const publicJwk: JWK = { kty: 'RSA', n: privateJwk.n, e: privateJwk.e };
      const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
      return { kid, privateJwk, publicJwk, key: (await importJWK(publicJwk, algorithm)) as CryptoKey };
    }),
  );
  const current = pairs[0]!;
  const verificationKeys = distinct(pairs);
  return {
    algorithm,
    signingKey: (await importJWK(current.privateJwk, algorithm)) as CryptoKey,
    kid: current.kid,
    verificationKeys: verificationKeys.map(({ kid, key }) => ({ kid, key })),
    jwks: { keys: verificationKeys.map(({ kid, publicJwk }) => ({ ...publicJwk, kid, alg: algorithm, use: 'sig' })) },
  };
}

/** The HMAC key of JWTs made from SECRET_KEY: as long as the hash's output, and of no use for anything else. */
function derivedJwtSecret(secretKey: string, algorithm: 'HS256' | 'HS512'): Buffer {
  const length = algorithm === 'HS256' ? 32 : 64;
  return Buffer.from(hkdfSync(algorithm === 'HS256' ? 'sha256' : 'sha512', Buffer.from(secretKey, 'utf8'), 'headless-auth', `jwt ${algorithm} v1`, length));
}

/** A key listed twice (current and fallback) counts once. */
function distinct<T extends { kid: string }>(keys: T[]): T[] {
  return keys.filter((key, i) => keys.findIndex((k) => k.kid === key.kid) === i);
}
