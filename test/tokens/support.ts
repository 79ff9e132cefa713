import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { ApiClient } from '../support/client.js';
import type { TestServer } from '../support/server.js';

// Helpers for the token suites: keys, accounts with tokens, and reading JWTs.

export const PASSWORD = 'a long secret phrase';

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

const pems = new Map<string, string>();

/** A 2048-bit RSA private key in PKCS#8 PEM, one per label and process. */
export function rsaPrivateKeyPem(label = 'default'): string {
  let pem = pems.get(label);
  if (!pem) {
    pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    pems.set(label, pem);
  }
  return pem;
}

/** Settings for the JWT strategy with RS256 and no mail round trip at signup. */
export function jwtEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HEADLESS_TOKEN_STRATEGY: 'jwt',
    HEADLESS_JWT_ALGORITHM: 'RS256',
    HEADLESS_JWT_PRIVATE_KEY: rsaPrivateKeyPem(),
    ACCOUNT_EMAIL_VERIFICATION: 'none',
    ...extra,
  };
}

export interface SignedUp {
  email: string;
  client: ApiClient;
  sessionToken: string;
  accessToken: string;
  refreshToken: string;
  userId: number;
}

/** Signs a new account up on the app client; the JWT strategy hands out tokens at once. */
export async function signUp(server: TestServer, label = 'user'): Promise<SignedUp> {
  const client = server.client('app');
  const email = uniqueEmail(label);
  const response = await client.post('/auth/signup', { email, password: PASSWORD });
  assert.equal(response.status, 200);
  const { meta, data } = response.body;
  assert.equal(typeof meta.access_token, 'string');
  assert.equal(typeof meta.refresh_token, 'string');
  return { email, client, sessionToken: meta.session_token, accessToken: meta.access_token, refreshToken: meta.refresh_token, userId: data.user.id };
}

export const bearer = (token: string, scheme = 'Bearer') => ({ authorization: `${scheme} ${token}` });

export const claimsOf = (token: string) => decodeJwt(token);
export const headerOf = (token: string) => decodeProtectedHeader(token);
