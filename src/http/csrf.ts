import { hashSecret, randomKey } from '../security/secrets.js';
import type { Signer } from '../security/signing.js';

// CSRF tokens for browser clients: `nonce.signature`, the signature binding
// the token to the session cookie it was issued with, or, for a visitor
// without a session, to a random cookie of that browser alone (HttpOnly, so
// a script cannot read it). A token someone fetched for their own browser is
// worth nothing in another's; a token planted by a sibling subdomain cannot
// match the victim's session; a login, which issues a new session key,
// retires every earlier token. The signer (purpose `csrf`) signs with
// SECRET_KEY and verifies with its fallbacks too, so a key rotation does not
// fail every open form.

/** What a token is bound to, or null when the browser holds neither cookie (no token can be valid). */
export function csrfBinding(sessionCookie: string | undefined, browserCookie: string | undefined): string | null {
  if (sessionCookie) return hashSecret(sessionCookie);
  return browserCookie ? hashSecret(`browser:${browserCookie}`) : null;
}

export function issueCsrfToken(signer: Signer, binding: string): string {
  const nonce = randomKey(18);
  return `${nonce}.${signer.sign(`${binding}:${nonce}`)}`;
}

export function csrfTokenValid(signer: Signer, binding: string | null, token: string | undefined): boolean {
  return binding !== null && check(signer, binding, token, 'any');
}

/** Valid under the current SECRET_KEY: a token signed by a fallback is replaced before the fallback goes. */
export function csrfTokenCurrent(signer: Signer, binding: string, token: string | undefined): boolean {
  return check(signer, binding, token, 'current');
}

function check(signer: Signer, binding: string, token: string | undefined, keys: 'any' | 'current'): boolean {
  if (!token) return false;
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  const message = `${binding}:${token.slice(0, dot)}`;
  const signature = token.slice(dot + 1);
  return keys === 'any' ? signer.verify(message, signature) : signer.verifyCurrent(message, signature);
}
