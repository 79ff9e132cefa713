import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { SocialApp } from '../app.js';
import { isAcceptableEndpoint } from '../kit/loopback.js';

// A SAML app's `settings`, in the reference's shape (idp, sp,
// attribute_mapping, use_nameid_for_email, advanced, contact_person,
// organization), checked field by field when the configuration is loaded,
// so that a typo or an unsupported switch stops the start instead of
// weakening a login later. The same parse builds the typed form at run time.

export interface IdpSettings {
  entityId: string;
  /** Where the IdP publishes its metadata (SSO/SLO URLs and certificates come from it), or null. */
  metadataUrl: string | null;
  ssoUrl: string | null;
  /** How the AuthnRequest travels (python3-saml's idp.singleSignOnService.binding); null: as the metadata offers, redirect first. */
  ssoBinding: SsoBinding | null;
  sloUrl: string | null;
  /** Base64 DER of the IdP's signing certificates (from x509cert, or the metadata). */
  certs: string[];
  metadataRequestTimeoutMs: number;
  metadataCacheMs: number;
}

export type HashName = 'sha1' | 'sha256' | 'sha512';

export const BINDINGS = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
} as const;
export type SsoBinding = keyof typeof BINDINGS;

export interface AdvancedSettings {
  authnRequestSigned: boolean;
  logoutRequestSigned: boolean;
  logoutResponseSigned: boolean;
  metadataSigned: boolean;
  wantAssertionSigned: boolean;
  wantMessageSigned: boolean;
  wantAssertionEncrypted: boolean;
  wantNameId: boolean;
  wantAttributeStatement: boolean;
  rejectDeprecatedAlgorithm: boolean;
  rejectIdpInitiatedSso: boolean;
  signatureAlgorithm: HashName;
  digestAlgorithm: HashName;
  nameIdFormat: string | null;
  /** The SP's key and certificate (PEM): requests and metadata are signed with it, encrypted assertions opened with it. */
  privateKey: string | null;
  x509cert: string | null;
}

export interface SamlSettings {
  idp: IdpSettings;
  spEntityId: string | null;
  /** Our names (uid, email, ...) to the IdP's attribute names, tried in order. */
  attributeMapping: Record<string, string[]>;
  useNameIdForEmail: boolean;
  advanced: AdvancedSettings;
  /** Who the IdP's administrators may contact, for the SP metadata (node-saml's shape). */
  contactPersons: ContactPerson[] | null;
  organization: MetadataOrganization | null;
}

const CONTACT_TYPES = ['technical', 'support', 'administrative', 'billing', 'other'] as const;
/** The reference's (python3-saml's) contact fields, by the metadata element each becomes. */
const CONTACT_FIELDS = { company: 'Company', givenName: 'GivenName', surName: 'SurName', emailAddress: 'EmailAddress', telephoneNumber: 'TelephoneNumber' } as const;

export interface ContactPerson {
  '@contactType': (typeof CONTACT_TYPES)[number];
  Company?: string;
  GivenName?: string;
  SurName?: string;
  EmailAddress?: [string];
  TelephoneNumber?: [string];
}

type Localized = { '@xml:lang': string; '#text': string }[];
export interface MetadataOrganization {
  OrganizationName: Localized;
  OrganizationDisplayName: Localized;
  OrganizationURL: Localized;
}

/** The reference's defaults, used when an app gives no attribute_mapping. */
export const DEFAULT_ATTRIBUTE_MAPPING: Readonly<Record<string, string[]>> = {
  uid: ['urn:oasis:names:tc:SAML:attribute:subject-id'],
  email: ['urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'],
  email_verified: ['http://schemas.auth0.com/email_verified'],
  first_name: ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'urn:oid:2.5.4.42'],
  last_name: ['urn:oid:2.5.4.4'],
  username: ['http://schemas.auth0.com/nickname'],
};

/** The algorithm URIs python3-saml takes, by the hash they name (the reference's docs also give the RSA URI as a digest). */
const ALGORITHMS: Record<string, HashName> = {
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1': 'sha1',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'sha512',
  'http://www.w3.org/2000/09/xmldsig#sha1': 'sha1',
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};

/** The organization slug names the app in its URLs (/accounts/saml/<slug>/...). */
export const ORGANIZATION_SLUG = /^[A-Za-z0-9_.-]{1,100}$/;

export class SamlSettingsError extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): never {
  throw new SamlSettingsError(message);
}

function only(where: string, given: Json, accepted: readonly string[]): void {
  for (const key of Object.keys(given)) if (!accepted.includes(key)) fail(`${where}: unknown setting "${key}"; accepted: ${accepted.join(', ')}`);
}

function text(where: string, value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') fail(`${where}: expected a string`);
  return value.trim();
}

function url(where: string, value: unknown): string | null {
  const given = text(where, value);
  if (given === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(given);
  } catch {
    fail(`${where}: expected an absolute URL`);
  }
  if (!isAcceptableEndpoint(parsed)) fail(`${where}: expected an https URL (http only on this machine's loopback address)`);
  return given;
}

function flag(where: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') fail(`${where}: expected true or false`);
  return value;
}

function seconds(where: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback * 1000;
  if (typeof value !== 'number' || !(value > 0)) fail(`${where}: expected a positive number of seconds`);
  return value * 1000;
}

/** A certificate as PEM or bare base64, checked to be one, answered as bare base64 DER. */
export function certificateBody(where: string, value: string): string {
  const body = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  try {
    new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    fail(`${where}: not a readable X.509 certificate`);
  }
  return body;
}

function pemKey(where: string, value: unknown): string | null {
  const given = text(where, value);
  if (given === null) return null;
  // The reference's example gives the key as bare base64; PEM is what node:crypto reads.
  const pem = given.includes('-----BEGIN') ? given.replace(/\\n/g, '\n') : `-----BEGIN PRIVATE KEY-----\n${given.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`;
  try {
    createPrivateKey(pem);
  } catch {
    fail(`${where}: not a readable private key`);
  }
  return pem;
}

function algorithm(where: string, value: unknown, fallback: HashName): HashName {
  const given = text(where, value);
  if (given === null) return fallback;
  const hash = ALGORITHMS[given];
  if (!hash) fail(`${where}: expected one of ${Object.keys(ALGORITHMS).join(', ')}`);
  return hash;
}

function binding(where: string, value: unknown): SsoBinding | null {
  const given = text(where, value);
  if (given === null) return null;
  const found = (Object.keys(BINDINGS) as SsoBinding[]).find((name) => BINDINGS[name] === given);
  return found ?? fail(`${where}: expected ${Object.values(BINDINGS).join(' or ')}`);
}

function parseContacts(value: unknown): ContactPerson[] | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) fail('contact_person: expected an object of contact types (technical, support, ...) to contacts');
  only('contact_person', value, CONTACT_TYPES);
  return Object.entries(value).map(([type, given]) => {
    const where = `contact_person.${type}`;
    if (!isObject(given)) fail(`${where}: expected an object with givenName and emailAddress`);
    only(where, given, Object.keys(CONTACT_FIELDS));
    const contact: ContactPerson = { '@contactType': type as ContactPerson['@contactType'] };
    for (const [field, element] of Object.entries(CONTACT_FIELDS)) {
      const entry = text(`${where}.${field}`, given[field]);
      if (entry === null) continue;
      if (element === 'EmailAddress' || element === 'TelephoneNumber') contact[element] = [element === 'EmailAddress' && !entry.startsWith('mailto:') ? `mailto:${entry}` : entry];
      else contact[element] = entry;
    }
    return contact;
  });
}

function parseOrganization(value: unknown): MetadataOrganization | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value) || Object.keys(value).length === 0) fail('organization: expected an object of languages (en-US, ...) to name, displayname and url');
  const organization: MetadataOrganization = { OrganizationName: [], OrganizationDisplayName: [], OrganizationURL: [] };
  for (const [lang, given] of Object.entries(value)) {
    const where = `organization.${lang}`;
    if (!isObject(given)) fail(`${where}: expected an object with name, displayname and url`);
    only(where, given, ['name', 'displayname', 'url']);
    // The metadata schema wants all three in each language.
    const name = text(`${where}.name`, given.name) ?? fail(`${where}.name: required`);
    organization.OrganizationName.push({ '@xml:lang': lang, '#text': name });
    organization.OrganizationDisplayName.push({ '@xml:lang': lang, '#text': text(`${where}.displayname`, given.displayname) ?? name });
    const home = text(`${where}.url`, given.url) ?? fail(`${where}.url: required`);
    if (!URL.canParse(home)) fail(`${where}.url: expected an absolute URL`);
    organization.OrganizationURL.push({ '@xml:lang': lang, '#text': home });
  }
  return organization;
}

function parseIdp(value: unknown): IdpSettings {
  if (!isObject(value)) fail('idp: required, an object with entity_id and metadata_url, or sso_url and x509cert');
  only('idp', value, ['entity_id', 'metadata_url', 'sso_url', 'sso_binding', 'slo_url', 'x509cert', 'metadata_request_timeout', 'metadata_cache_timeout']);
  const entityId = text('idp.entity_id', value.entity_id) ?? fail('idp.entity_id: required');
  const metadataUrl = url('idp.metadata_url', value.metadata_url);
  const ssoUrl = url('idp.sso_url', value.sso_url);
  const cert = text('idp.x509cert', value.x509cert);
  if (!metadataUrl && (!ssoUrl || !cert)) fail('idp: give metadata_url, or sso_url and x509cert');
  return {
    entityId,
    metadataUrl,
    ssoUrl,
    ssoBinding: binding('idp.sso_binding', value.sso_binding),
    sloUrl: url('idp.slo_url', value.slo_url),
    certs: cert ? [certificateBody('idp.x509cert', cert)] : [],
    metadataRequestTimeoutMs: seconds('idp.metadata_request_timeout', value.metadata_request_timeout, 10),
    metadataCacheMs: seconds('idp.metadata_cache_timeout', value.metadata_cache_timeout, 4 * 3600),
  };
}

function parseMapping(value: unknown): Record<string, string[]> {
  if (value === undefined || value === null) return { ...DEFAULT_ATTRIBUTE_MAPPING };
  if (!isObject(value)) fail('attribute_mapping: expected an object of our names to attribute names');
  only('attribute_mapping', value, Object.keys(DEFAULT_ATTRIBUTE_MAPPING));
  const mapping: Record<string, string[]> = {};
  for (const [name, names] of Object.entries(value)) {
    const list = typeof names === 'string' ? [names] : names;
    if (!Array.isArray(list) || !list.every((n) => typeof n === 'string' && n !== '')) fail(`attribute_mapping.${name}: expected an attribute name or a list of them`);
    mapping[name] = list as string[];
  }
  return mapping;
}

/** The reference's advanced switches; those this server does not implement are refused when they would change a login. */
const ADVANCED = [
  'allow_repeat_attribute_name', 'allow_single_label_domains', 'authn_request_signed', 'digest_algorithm', 'logout_request_signed',
  'logout_response_signed', 'metadata_signed', 'name_id_encrypted', 'name_id_format', 'private_key', 'reject_deprecated_algorithm',
  'reject_idp_initiated_sso', 'signature_algorithm', 'strict', 'want_assertion_encrypted', 'want_assertion_signed', 'want_attribute_statement',
  'want_message_signed', 'want_name_id', 'want_name_id_encrypted', 'x509cert', 'x509cert_new', 'metadata_valid_until', 'metadata_cache_duration',
];

function parseAdvanced(value: unknown): AdvancedSettings {
  if (value === undefined || value === null) value = {};
  if (!isObject(value)) fail('advanced: expected an object');
  only('advanced', value, ADVANCED);
  const at = (name: string) => `advanced.${name}`;
  if (flag(at('strict'), value.strict, true) === false) fail('advanced.strict: false is not supported (every response is checked strictly)');
  if (flag(at('want_name_id_encrypted'), value.want_name_id_encrypted, false)) fail('advanced.want_name_id_encrypted: not supported yet (see docs/differences.md)');
  if (flag(at('name_id_encrypted'), value.name_id_encrypted, false)) fail('advanced.name_id_encrypted: not supported yet (see docs/differences.md)');
  const privateKey = pemKey(at('private_key'), value.private_key);
  const cert = text(at('x509cert'), value.x509cert);
  const x509cert = cert === null ? null : certificateBody(at('x509cert'), cert);
  if ((privateKey === null) !== (x509cert === null)) fail('advanced: private_key and x509cert go together (the SP\'s key and its certificate)');
  const advanced: AdvancedSettings = {
    authnRequestSigned: flag(at('authn_request_signed'), value.authn_request_signed, false),
    logoutRequestSigned: flag(at('logout_request_signed'), value.logout_request_signed, false),
    logoutResponseSigned: flag(at('logout_response_signed'), value.logout_response_signed, false),
    metadataSigned: flag(at('metadata_signed'), value.metadata_signed, false),
    wantAssertionSigned: flag(at('want_assertion_signed'), value.want_assertion_signed, false),
    wantMessageSigned: flag(at('want_message_signed'), value.want_message_signed, false),
    wantAssertionEncrypted: flag(at('want_assertion_encrypted'), value.want_assertion_encrypted, false),
    wantNameId: flag(at('want_name_id'), value.want_name_id, false),
    wantAttributeStatement: flag(at('want_attribute_statement'), value.want_attribute_statement, true),
    rejectDeprecatedAlgorithm: flag(at('reject_deprecated_algorithm'), value.reject_deprecated_algorithm, true),
    rejectIdpInitiatedSso: flag(at('reject_idp_initiated_sso'), value.reject_idp_initiated_sso, true),
    signatureAlgorithm: algorithm(at('signature_algorithm'), value.signature_algorithm, 'sha256'),
    digestAlgorithm: algorithm(at('digest_algorithm'), value.digest_algorithm, 'sha256'),
    nameIdFormat: text(at('name_id_format'), value.name_id_format),
    privateKey,
    x509cert,
  };
  const needsKey = advanced.authnRequestSigned || advanced.logoutRequestSigned || advanced.logoutResponseSigned || advanced.metadataSigned || advanced.wantAssertionEncrypted;
  if (needsKey && !privateKey) fail('advanced: signing requests or metadata, and encrypted assertions, need private_key and x509cert');
  if (advanced.rejectDeprecatedAlgorithm && (advanced.signatureAlgorithm === 'sha1' || advanced.digestAlgorithm === 'sha1')) {
    fail('advanced: SHA-1 is deprecated; set reject_deprecated_algorithm to false to use it');
  }
  return advanced;
}

/** The typed settings of a SAML app; throws SamlSettingsError naming the field. */
export function samlSettings(app: SocialApp): SamlSettings {
  if (!ORGANIZATION_SLUG.test(app.clientId)) fail('client_id: the organization slug, letters, digits, "_", "." or "-" (it is part of the SAML URLs)');
  const options = app.options;
  const sp = options.sp;
  if (sp !== undefined && !isObject(sp)) fail('sp: expected an object');
  if (isObject(sp)) only('sp', sp, ['entity_id']);
  const useNameIdForEmail = options.use_nameid_for_email;
  if (useNameIdForEmail !== undefined && typeof useNameIdForEmail !== 'boolean') fail('use_nameid_for_email: expected true or false');
  return {
    idp: parseIdp(options.idp),
    spEntityId: isObject(sp) ? text('sp.entity_id', sp.entity_id) : null,
    attributeMapping: parseMapping(options.attribute_mapping),
    useNameIdForEmail: useNameIdForEmail === true,
    advanced: parseAdvanced(options.advanced),
    contactPersons: parseContacts(options.contact_person),
    organization: parseOrganization(options.organization),
  };
}
