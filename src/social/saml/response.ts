import { SAML, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import { ProviderError } from '../provider-type.js';
import type { SamlSettings } from './settings.js';
import type { IdpEndpoints } from './idp-metadata.js';
import { child, children, descendants, hasComment, NS, parseXml, textOf } from './xml.js';

// The ACS's check of an IdP's answer. node-saml (over xml-crypto) verifies
// the signature, takes the assertion only from the signed content (a wrapped
// copy elsewhere in the document is never read), decrypts an encrypted
// assertion, and checks the audience and the Conditions and
// SubjectConfirmationData time windows with a small skew. What it leaves
// out is checked here, on the verified assertion: the issuer, the
// Destination and the Recipient (both must be this ACS), and which request
// the answer is for. Comments anywhere, and SHA-1 unless allowed, are
// refused before any of it. Each refusal has a code, for the log and the tests.

export type SamlRefusal =
  | 'malformed'
  | 'comment'
  | 'deprecated_algorithm'
  | 'not_encrypted'
  | 'status'
  | 'signature'
  | 'audience'
  | 'expired'
  | 'issuer'
  | 'destination'
  | 'recipient'
  | 'in_response_to'
  | 'no_name_id'
  | 'no_attributes';

export class SamlRefused extends ProviderError {
  override name = 'SamlRefused';
  constructor(
    readonly code: SamlRefusal,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** What a verified assertion says. */
export interface Assertion {
  id: string;
  issuer: string;
  /** The AuthnRequest it answers (from signed content only), null when unsolicited (IdP-initiated). */
  inResponseTo: string | null;
  nameId: string | null;
  nameIdFormat: string | null;
  sessionIndex: string | null;
  /** Every attribute with all its values, by name. */
  attributes: Record<string, string[]>;
  /** Until when the assertion could be presented (ms since the epoch): the replay record lives that long. */
  usableUntil: number;
}

/** The small clock skew allowed on NotBefore/NotOnOrAfter. */
export const CLOCK_SKEW_MS = 60_000;
/** How long an assertion without a NotOnOrAfter is remembered as used. */
const DEFAULT_LIFETIME_MS = 3600_000;

const DEPRECATED = /#(rsa-)?sha1$/;

export interface ResponseCheck {
  settings: SamlSettings;
  idp: IdpEndpoints;
  spEntityId: string;
  acsUrl: string;
  samlResponse: string;
  now: number;
}

function refuse(code: SamlRefusal, message: string): never {
  throw new SamlRefused(code, message);
}

/** node-saml's errors, by what it says (its messages are its only interface for these). */
function classify(error: Error): SamlRefused {
  if (error instanceof SamlStatusError) return new SamlRefused('status', error.message);
  const message = error.message;
  if (/audience|AudienceRestriction/i.test(message)) return new SamlRefused('audience', message);
  if (/expired|NotBefore|NotOnOrAfter|not yet valid/i.test(message)) return new SamlRefused('expired', message);
  if (/signature|decrypt|EncryptedAssertion|assertion/i.test(message)) return new SamlRefused('signature', message);
  return new SamlRefused('malformed', message);
}

function milliseconds(value: string | null): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function preChecks(check: ResponseCheck): Document {
  const { settings } = check;
  const doc = parseXml(Buffer.from(check.samlResponse, 'base64').toString('utf8'));
  const root = doc?.documentElement;
  if (!doc || !root || root.namespaceURI !== NS.protocol || root.localName !== 'Response') refuse('malformed', 'not a SAML Response');
  // A comment inside a signed value leaves the signature valid (canonicalization drops it) while some parsers
  // read only the text before it: no IdP needs comments, so none is accepted.
  if (hasComment(doc)) refuse('comment', 'the response contains an XML comment');
  if (settings.advanced.rejectDeprecatedAlgorithm) {
    const algorithms = [...descendants(doc, NS.dsig, 'SignatureMethod'), ...descendants(doc, NS.dsig, 'DigestMethod')].map((e) => e.getAttribute('Algorithm') ?? '');
    if (algorithms.some((a) => DEPRECATED.test(a))) refuse('deprecated_algorithm', 'SHA-1 signature or digest');
  }
  if (settings.advanced.wantAssertionEncrypted && children(root, NS.assertion, 'Assertion').length > 0) refuse('not_encrypted', 'a plain assertion where an encrypted one is required');
  const destination = root.getAttribute('Destination');
  if (destination && destination !== check.acsUrl) refuse('destination', `Destination ${destination} is not this ACS`);
  const issuer = textOf(child(root, NS.assertion, 'Issuer'));
  if (issuer !== null && issuer !== settings.idp.entityId) refuse('issuer', `response Issuer ${issuer}`);
  return doc;
}

function attributesOf(assertion: Element): Record<string, string[]> {
  const attributes: Record<string, string[]> = {};
  for (const statement of children(assertion, NS.assertion, 'AttributeStatement')) {
    for (const attribute of children(statement, NS.assertion, 'Attribute')) {
      const name = attribute.getAttribute('Name');
      if (!name) continue;
      const values = children(attribute, NS.assertion, 'AttributeValue').map((v) => textOf(v) ?? '');
      (attributes[name] ??= []).push(...values);
    }
  }
  return attributes;
}

/** Reads the verified assertion, and checks what node-saml does not. */
function readAssertion(check: ResponseCheck, xml: string, responseInResponseTo: string | null, responseSigned: boolean): Assertion {
  const doc = parseXml(xml);
  const assertion = doc?.documentElement;
  if (!doc || !assertion || assertion.localName !== 'Assertion' || assertion.namespaceURI !== NS.assertion) refuse('malformed', 'no assertion in the signed content');
  const issuer = textOf(child(assertion, NS.assertion, 'Issuer'));
  if (issuer !== check.settings.idp.entityId) refuse('issuer', `assertion Issuer ${issuer ?? '(none)'}`);
  const subject = child(assertion, NS.assertion, 'Subject');
  const bearer = subject
    ? children(subject, NS.assertion, 'SubjectConfirmation').filter((c) => c.getAttribute('Method') === 'urn:oasis:names:tc:SAML:2.0:cm:bearer')
    : [];
  const data = bearer.map((c) => child(c, NS.assertion, 'SubjectConfirmationData')).filter((d): d is Element => d !== null);
  if (data.length === 0) refuse('recipient', 'no bearer SubjectConfirmationData');
  if (!data.some((d) => d.getAttribute('Recipient') === check.acsUrl)) refuse('recipient', 'no bearer confirmation for this ACS');
  // The request answered, from signed content only: the assertion's own, or the response's when the response is signed.
  const confirmed = data.map((d) => d.getAttribute('InResponseTo')).find(Boolean) ?? null;
  if (confirmed && responseInResponseTo && confirmed !== responseInResponseTo) refuse('in_response_to', 'the response and its assertion answer different requests');
  const inResponseTo = confirmed ?? (responseSigned ? responseInResponseTo : null);
  const nameIdElement = subject ? child(subject, NS.assertion, 'NameID') : null;
  if (check.settings.advanced.wantNameId && !nameIdElement) refuse('no_name_id', 'no NameID');
  const attributes = attributesOf(assertion);
  if (check.settings.advanced.wantAttributeStatement && children(assertion, NS.assertion, 'AttributeStatement').length === 0) refuse('no_attributes', 'no AttributeStatement');
  const conditions = child(assertion, NS.assertion, 'Conditions');
  const until = [milliseconds(conditions?.getAttribute('NotOnOrAfter') ?? null), ...data.map((d) => milliseconds(d.getAttribute('NotOnOrAfter')))].filter((t): t is number => t !== null);
  const authn = child(assertion, NS.assertion, 'AuthnStatement');
  return {
    id: assertion.getAttribute('ID') || refuse('malformed', 'assertion without ID'),
    issuer: issuer!,
    inResponseTo,
    nameId: textOf(nameIdElement),
    nameIdFormat: nameIdElement?.getAttribute('Format') || null,
    sessionIndex: authn?.getAttribute('SessionIndex') || null,
    attributes,
    usableUntil: (until.length ? Math.max(...until) : check.now + DEFAULT_LIFETIME_MS) + CLOCK_SKEW_MS,
  };
}

/**
 * The SAML instance for one app at one origin (node-saml keeps no state
 * between calls with these options); `messageId` the ID of the request it
 * makes; `postBinding` for an AuthnRequest sent by HTTP-POST, which carries
 * its XML signed and not deflated.
 */
export function samlClient(
  settings: SamlSettings,
  idp: IdpEndpoints,
  sp: { entityId: string; acsUrl: string; slsUrl: string },
  messageId?: string,
  postBinding = false,
): SAML {
  const { advanced } = settings;
  return new SAML({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    logoutCallbackUrl: sp.slsUrl,
    entryPoint: idp.ssoUrl,
    logoutUrl: idp.sloUrl ?? undefined,
    idpCert: idp.certs,
    idpIssuer: settings.idp.entityId,
    audience: sp.entityId,
    wantAssertionsSigned: advanced.wantAssertionSigned,
    wantAuthnResponseSigned: advanced.wantMessageSigned,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    // Checked against the browser's own flow state by the caller, not a cache of node-saml's.
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: advanced.nameIdFormat,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: advanced.signatureAlgorithm,
    digestAlgorithm: advanced.digestAlgorithm,
    ...(advanced.privateKey ? { decryptionPvk: advanced.privateKey } : {}),
    ...(advanced.privateKey && (advanced.authnRequestSigned || advanced.logoutRequestSigned || advanced.logoutResponseSigned) ? { privateKey: advanced.privateKey } : {}),
    ...(messageId ? { generateUniqueId: () => messageId } : {}),
    ...(postBinding ? { authnRequestBinding: 'HTTP-POST', skipRequestCompression: true } : {}),
    ...(settings.contactPersons ? { metadataContactPerson: settings.contactPersons } : {}),
    ...(settings.organization ? { metadataOrganization: settings.organization } : {}),
  });
}

/** The verified assertion of a posted SAMLResponse; throws SamlRefused saying which check failed. */
export async function verifyResponse(check: ResponseCheck): Promise<Assertion> {
  const doc = preChecks(check);
  const root = doc.documentElement!;
  const client = samlClient(check.settings, check.idp, { entityId: check.spEntityId, acsUrl: check.acsUrl, slsUrl: check.acsUrl });
  let xml: string | undefined;
  try {
    const { profile } = await client.validatePostResponseAsync({ SAMLResponse: check.samlResponse });
    xml = profile?.getAssertionXml?.();
  } catch (error) {
    throw classify(error as Error);
  }
  if (!xml) refuse('malformed', 'no assertion');
  const responseSigned = children(root, NS.dsig, 'Signature').length > 0 && check.settings.advanced.wantMessageSigned;
  return readAssertion(check, xml, root.getAttribute('InResponseTo') || null, responseSigned);
}
