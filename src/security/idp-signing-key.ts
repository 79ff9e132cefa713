import { createPrivateKey, createPublicKey } from 'node:crypto';
import { hmac } from './secrets.js';

// IDP_OIDC_PRIVATE_KEY as a JWK with its algorithm and a stable key id: for
// the provider's JWKS and ID tokens, and for logout tokens (backchannel.ts,
// which runs in every process that ends sessions, the CLI included, and so
// does not load the provider).

export function signingKey(pem: string): { jwk: Record<string, unknown>; alg: string } {
  const key = createPrivateKey(pem);
  const jwk = key.export({ format: 'jwk' }) as Record<string, unknown>;
  const alg = key.asymmetricKeyType === 'rsa' ? 'RS256' : ({ 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' } as Record<string, string>)[String(jwk.crv)] ?? 'ES256';
  // A stable key id: the public key's thumbprint-like digest.
  const kid = hmac('kid', createPublicKey(key).export({ format: 'der', type: 'spki' }).toString('base64')).slice(0, 16);
  return { jwk: { ...jwk, kid, alg, use: 'sig' }, alg };
}
