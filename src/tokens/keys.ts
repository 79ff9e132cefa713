import { createPrivateKey, webcrypto } from 'node:crypto';
import { calculateJwkThumbprint, importJWK, type JWK } from 'jose';
import { ConfigError } from '../config/env.js';
import type { JwtAlgorithm, JwtSettings } from '../config/tokens.js';

// JWT keys, imported once at start-up: verifying on the hot path never
// re-parses a PEM or a secret.

export interface SigningKeys {
  algorithm: JwtAlgorithm;
  signingKey: CryptoKey;
  verificationKey: CryptoKey;
  /** RS*: the RFC 7638 thumbprint of the public key, as the reference sets it. */
  kid: string | undefined;
  /** RS*: the public JWK Set resource servers verify with; null for HS* (a shared secret). */
  jwks: { keys: JWK[] } | null;
}

export async function loadSigningKeys(settings: JwtSettings, secretKey: string): Promise<SigningKeys> {
  const { algorithm } = settings;
  if (algorithm === 'HS256' || algorithm === 'HS512') {
    const secret = Buffer.from(settings.privateKey ?? secretKey, 'utf8');
    const hash = algorithm === 'HS256' ? 'SHA-256' : 'SHA-512';
    const key = await webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash }, false, ['sign', 'verify']);
    return { algorithm, signingKey: key as CryptoKey, verificationKey: key as CryptoKey, kid: undefined, jwks: null };
  }
  if (!settings.privateKey) {
    throw new ConfigError(`HEADLESS_JWT_PRIVATE_KEY is required for HEADLESS_JWT_ALGORITHM=${algorithm}`);
  }
  const privateJwk = createPrivateKey(settings.privateKey).export({ format: 'jwk' }) as JWK;
  const publicJwk: JWK = { kty: 'RSA', n: privateJwk.n, e: privateJwk.e };
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  return {
    algorithm,
    signingKey: (await importJWK(privateJwk, algorithm)) as CryptoKey,
    verificationKey: (await importJWK(publicJwk, algorithm)) as CryptoKey,
    kid,
    jwks: { keys: [{ ...publicJwk, kid, alg: algorithm, use: 'sig' }] },
  };
}
