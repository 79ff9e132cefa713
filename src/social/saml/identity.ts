import type { Identity } from '../provider-type.js';
import type { SamlSettings } from './settings.js';
import type { Assertion } from './response.js';
import { ProviderError } from '../provider-type.js';

// Who a verified assertion names, by the app's attribute_mapping, as the
// reference reads it: each of our fields takes the first value of the first
// mapped attribute present; the uid falls back to the NameID, the email to
// the NameID when its format is emailAddress (or use_nameid_for_email); an
// address is verified only when the mapped email_verified attribute says so
// (or the app's verified_email vouches for it). extra_data is the whole
// attribute map, lists of values.

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const TRUE = ['true', '1', 't', 'y', 'yes'];

function mapped(settings: SamlSettings, assertion: Assertion): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [field, names] of Object.entries(settings.attributeMapping)) {
    for (const name of names) {
      const value = assertion.attributes[name]?.[0];
      if (value !== undefined) {
        found[field] = value;
        break;
      }
    }
  }
  return found;
}

export function samlIdentity(settings: SamlSettings, assertion: Assertion): Identity {
  const fields = mapped(settings, assertion);
  const uid = fields.uid ?? assertion.nameId;
  if (!uid) throw new ProviderError('the assertion names no subject: no mapped uid attribute and no NameID');
  let email = fields.email ?? null;
  if (!email && assertion.nameId && (assertion.nameIdFormat === EMAIL_FORMAT || settings.useNameIdForEmail)) email = assertion.nameId;
  const verified = TRUE.includes((fields.email_verified ?? '').toLowerCase());
  return {
    uid,
    extraData: assertion.attributes,
    emails: email ? [{ email, verified, primary: true }] : [],
    username: fields.username ?? null,
    firstName: fields.first_name ?? null,
    lastName: fields.last_name ?? null,
  };
}
