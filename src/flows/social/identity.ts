import type { SocialApp } from '../../social/app.js';
import type { Identity, ProviderEmail } from '../../social/provider-type.js';
import { normalizeEmail, providerEmailError } from '../validate.js';

// A provider's addresses as the reference cleans them up: well-formed ones
// only, in lower case (its valid_email_or_none lowercases them), each once; verified only when the provider says so, or when the
// app's `verified_email` setting vouches for the address; the primary and
// verified ones first.

function vouchedFor(app: SocialApp, email: string): boolean {
  const setting = app.common.verifiedEmail;
  if (typeof setting === 'boolean') return setting;
  return setting.includes(email.slice(email.lastIndexOf('@') + 1).toLowerCase());
}

const rank = (e: ProviderEmail) => (e.primary ? 2 : 0) + (e.verified ? 1 : 0);

export function cleanIdentity(app: SocialApp, identity: Identity): Identity {
  const seen = new Set<string>();
  const emails: ProviderEmail[] = [];
  for (const given of identity.emails) {
    const email = normalizeEmail(given.email).toLowerCase();
    if (providerEmailError(email) || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    emails.push({ email, primary: given.primary, verified: given.verified || vouchedFor(app, email) });
  }
  emails.sort((a, b) => rank(b) - rank(a));
  return { ...identity, emails };
}
