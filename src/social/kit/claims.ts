import type { Identity, ProviderEmail } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';

// Reading provider answers: claims and profile fields are untrusted JSON,
// checked field by field before they become an identity.

export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A provider's "verified" flag: only `true` (or Apple's "true") counts. */
export function isTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}

/** The uid as a non-empty string; numbers (GitHub's ids) are accepted and kept as text. */
export function uidOf(value: unknown): string {
  const uid = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : text(value);
  if (!uid || uid.length > 191) throw new ProviderError('the provider sent no usable user id');
  return uid;
}

export function singleEmail(email: unknown, verified: unknown): ProviderEmail[] {
  const address = text(email);
  return address ? [{ email: address, verified: isTrue(verified), primary: true }] : [];
}

/** The standard OpenID Connect claims as an identity (the reference's openid_connect mapping). */
export function oidcIdentity(claims: Record<string, unknown>, extraData: Record<string, unknown>, uidField = 'sub'): Identity {
  return {
    uid: uidOf(claims[uidField]),
    extraData,
    emails: singleEmail(claims.email, claims.email_verified),
    username: text(claims.preferred_username),
    name: text(claims.name),
    firstName: text(claims.given_name),
    lastName: text(claims.family_name),
  };
}
