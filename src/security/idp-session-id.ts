import { hmac } from './secrets.js';

/**
 * The `sid` the OpenID provider gives a client for one of our sessions (ID
 * tokens, logout tokens): derived from the session's id and the client
 * under the server's secret, so nothing is stored, a client cannot tell
 * that two sids of different clients are one session, and a logout here
 * can name the session it ended. SECRET_KEY's rotation changes them: logout
 * tokens for sessions started before it then name a sid clients do not know.
 */
export function idpSessionId(secret: string, sessionId: number, clientId: string): string {
  return hmac(secret, `idp-sid:${sessionId}:${clientId}`).slice(0, 32);
}
