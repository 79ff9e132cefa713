import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { TokenUse } from '../provider-type.js';

// ID tokens handed to the token flow are checked here with jose: the
// signature against the provider's published keys, with the algorithm taken
// from an allowlist of asymmetric algorithms (so `alg: none` and an HS256
// token "signed" with the provider's public key are refused before any key
// is touched), then iss, aud/azp, exp (no leeway, as the reference) and iat.
// Any failure is the same answer: not a valid token for this app.

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** An ID token issued a little in the future is accepted within this skew between the clocks. */
const IAT_SKEW_SECONDS = 60;

/** The provider's algorithms (from discovery) that are asymmetric; RS256 when it names none. */
export function signingAlgorithms(advertised: readonly string[] | undefined): string[] {
  const allowed = (advertised ?? ['RS256']).filter((alg) => ASYMMETRIC.includes(alg));
  return allowed.length > 0 ? allowed : ['RS256'];
}

/**
 * The provider's keys, fetched on first use and again when a token names a
 * key not yet seen (at most every 30 s), so a key rotation at the provider
 * needs no restart.
 */
export function remoteKeys(jwksUri: string, timeoutSeconds: number): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: timeoutSeconds * 1000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
}

export interface IdTokenRules {
  keys: JWTVerifyGetKey;
  algorithms: readonly string[];
  /** The issuer these claims must name (a function for issuers that depend on a claim, e.g. Microsoft's tenant), null when none can. */
  issuer: (claims: JWTPayload) => string | null | readonly string[];
  /** The app's client ids: `aud` must hold one, and `azp`, when present, must be one. */
  audiences: readonly string[];
  /** Milliseconds since the epoch (the injected clock). */
  now: number;
}

export interface VerifiedIdToken {
  claims: JWTPayload & Record<string, unknown>;
  /** Set when the token carries iss, exp and jti: it is then accepted once. */
  tokenUse?: TokenUse;
}

export async function verifyIdToken(token: string, rules: IdTokenRules): Promise<VerifiedIdToken | null> {
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(token, rules.keys, {
      algorithms: [...rules.algorithms],
      currentDate: new Date(rules.now),
      clockTolerance: 0,
      requiredClaims: ['iss', 'aud', 'exp', 'iat', 'sub'],
    }));
  } catch {
    // Malformed, unknown key, bad signature, wrong algorithm, expired: all the same to the caller.
    return null;
  }
  const expected = rules.issuer(claims);
  const issuers = typeof expected === 'string' ? [expected] : (expected ?? []);
  if (!issuers.includes(claims.iss!)) return null;
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud!];
  if (!audiences.some((aud) => rules.audiences.includes(aud))) return null;
  if (claims.azp !== undefined && (typeof claims.azp !== 'string' || !rules.audiences.includes(claims.azp))) return null;
  if (claims.iat! > rules.now / 1000 + IAT_SKEW_SECONDS) return null;
  const tokenUse = typeof claims.jti === 'string' ? { issuer: claims.iss!, jti: claims.jti, expiresAt: claims.exp! * 1000 } : undefined;
  return { claims: claims as VerifiedIdToken['claims'], tokenUse };
}
