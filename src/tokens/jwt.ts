import { randomUUID } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import type { SigningKeys, VerificationKey } from './keys.js';

// Signing and checking the service's JWTs. Times come from the server's
// clock (iat, exp and the verification date alike), so tests move the clock
// instead of sleeping.

export type TokenUse = 'access' | 'refresh';

/** Spec 2.11: the claims every token carries. */
export interface TokenClaims {
  sub: string;
  iat: number;
  exp: number;
  jti: string;
  sid: string;
  token_use: TokenUse;
  [custom: string]: unknown;
}

const RESERVED = new Set(['iat', 'exp', 'sid', 'jti', 'token_use', 'sub']);

/** Custom claims first, the reserved ones over them: an extension can add, never override. */
export function buildClaims(use: TokenUse, input: { sub: string; sid: string; nowMs: number; expiresIn: number; custom?: Record<string, unknown> }): TokenClaims {
  const iat = Math.floor(input.nowMs / 1000);
  const custom = Object.fromEntries(Object.entries(input.custom ?? {}).filter(([name]) => !RESERVED.has(name)));
  return { ...custom, iat, exp: iat + input.expiresIn, sid: input.sid, jti: randomUUID(), token_use: use, sub: input.sub };
}

export function signToken(keys: SigningKeys, claims: TokenClaims): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: keys.algorithm, typ: 'JWT', ...(keys.kid ? { kid: keys.kid } : {}) })
    .sign(keys.signingKey);
}

/**
 * The keys that may have signed `token`: the one its `kid` names (none when
 * it names an unknown key); without a kid, every HS secret of the ring (the
 * reference sets no kid on HS tokens) and no RS key (our RS tokens always
 * name theirs).
 */
function candidateKeys(keys: SigningKeys, token: string): readonly VerificationKey[] {
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return [];
  }
  if (kid === undefined) return keys.kid === undefined ? keys.verificationKeys : [];
  return keys.verificationKeys.filter((key) => key.kid === kid);
}

/**
 * The claims of a genuine, unexpired token of the given use, or null. The
 * algorithm is pinned to the configured one, so `alg: none` and an HS token
 * signed with the RSA public key are refused before any key is used.
 */
export async function verifyToken(keys: SigningKeys, token: string, use: TokenUse, nowMs: number): Promise<TokenClaims | null> {
  let payload: Record<string, unknown> | undefined;
  for (const { key } of candidateKeys(keys, token)) {
    try {
      ({ payload } = await jwtVerify(token, key, { algorithms: [keys.algorithm], currentDate: new Date(nowMs), requiredClaims: ['exp', 'iat'] }));
      break;
    } catch {
      // Another key of the ring may have signed it; an expired or malformed token fails under each.
    }
  }
  if (!payload || payload.token_use !== use) return null;
  for (const name of ['jti', 'sub', 'sid'] as const) {
    if (typeof payload[name] !== 'string') return null;
  }
  return payload as TokenClaims;
}
