import { inflateRawSync } from 'node:zlib';
import type { SAML } from '@node-saml/node-saml';
import { SamlRefused } from './response.js';
import type { SamlSettings } from './settings.js';
import { parseXml } from './xml.js';

// Single logout messages at the SLS, HTTP-Redirect binding: a LogoutRequest
// from the IdP (one of its other sessions logged out: end ours, answer with a
// LogoutResponse), or the IdP's LogoutResponse to one of ours. node-saml
// checks the issuer, the time window and the query's signature when there is
// one. As in the reference, an unsigned message is accepted unless the app
// sets want_message_signed (Entra ID, for one, does not sign its logout
// requests): the worst it does is end a session, and only in a browser
// that is made to navigate here. A LogoutResponse (its status Success, its
// issuer the IdP's) answers the request it names in InResponseTo, which the
// caller matches to a logout of ours.

export type LogoutMessage = { kind: 'request'; reply: string } | { kind: 'response'; inResponseTo: string | null };

/** The InResponseTo of a redirect-bound LogoutResponse, read once node-saml has verified it. */
function inResponseToOf(samlResponse: string): string | null {
  const root = parseXml(inflateRawSync(Buffer.from(samlResponse, 'base64')).toString('utf8'))?.documentElement;
  return root?.getAttribute('InResponseTo') || null;
}

const DEPRECATED = /#(rsa-)?sha1$/;

export async function logoutMessage(client: SAML, settings: SamlSettings, query: Record<string, string>, rawQuery: string): Promise<LogoutMessage> {
  if (!query.SAMLRequest === !query.SAMLResponse) throw new SamlRefused('malformed', 'expected a SAMLRequest or a SAMLResponse');
  if ((!query.Signature || !query.SigAlg) && settings.advanced.wantMessageSigned) throw new SamlRefused('signature', 'an unsigned logout message');
  if (query.Signature && !query.SigAlg) throw new SamlRefused('signature', 'a signature without SigAlg');
  if (settings.advanced.rejectDeprecatedAlgorithm && query.SigAlg && DEPRECATED.test(query.SigAlg)) throw new SamlRefused('deprecated_algorithm', 'SHA-1 signature');
  let validated;
  try {
    validated = await client.validateRedirectAsync(query, rawQuery);
  } catch (error) {
    const message = (error as Error).message;
    throw new SamlRefused(/signature/i.test(message) ? 'signature' : /issuer/i.test(message) ? 'issuer' : /expired|NotOnOrAfter/i.test(message) ? 'expired' : 'malformed', message);
  }
  if (query.SAMLResponse) return { kind: 'response', inResponseTo: inResponseToOf(query.SAMLResponse) };
  if (!validated.profile) throw new SamlRefused('malformed', 'a LogoutRequest without a subject');
  return { kind: 'request', reply: await client.getLogoutResponseUrlAsync(validated.profile, query.RelayState ?? '', {}, true) };
}
