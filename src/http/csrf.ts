import { constantTimeEqual, hashSecret, hmac, randomKey } from '../security/secrets.js';

// CSRF tokens for browser clients: `nonce.signature`, the signature binding
// the token to the session cookie it was issued with (or to "no session").
// A token planted by a sibling subdomain cannot match the victim's session,
// and a login, which issues a new session key, retires every earlier token.

export function csrfBinding(sessionCookie: string | undefined): string {
  return sessionCookie ? hashSecret(sessionCookie) : 'anonymous';
}

export function issueCsrfToken(secret: string, binding: string): string {
  const nonce = randomKey(18);
  return `${nonce}.${hmac(secret, `csrf:${binding}:${nonce}`)}`;
}

export function csrfTokenValid(secret: string, binding: string, token: string | undefined): boolean {
  if (!token) return false;
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  const nonce = token.slice(0, dot);
  return constantTimeEqual(token.slice(dot + 1), hmac(secret, `csrf:${binding}:${nonce}`));
}
