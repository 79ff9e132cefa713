import * as oidc from 'openid-client';

/** A PKCE verifier and its S256 challenge (openid-client's). */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = oidc.randomPKCECodeVerifier();
  return { verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
}
