import type { ProfileSettings } from '../config/profile.js';
import { fullName, type User } from '../domain/user.js';

// The claims of a user's names and profile fields. As the reference's
// allauth.idp (its adapter's get_claims): the `profile` scope gives `name`
// (Django's get_full_name()), `given_name` and `family_name`, each only when
// not blank. IDP_OIDC_PROFILE_CLAIMS adds custom fields under claims and
// scopes of the deployment's choosing (beyond the reference).

const STANDARD_PROFILE_CLAIMS = ['preferred_username', 'name', 'given_name', 'family_name'];

export function nameClaims(user: User): Record<string, string> {
  const name = fullName(user);
  return {
    ...(name ? { name } : {}),
    ...(user.firstName ? { given_name: user.firstName } : {}),
    ...(user.lastName ? { family_name: user.lastName } : {}),
  };
}

/** The mapped fields the user has a value for, under their claim names; oidc-provider keeps those of the granted scopes. */
export function profileFieldClaims(settings: ProfileSettings, user: User): Record<string, string | number | boolean> {
  const claims: Record<string, string | number | boolean> = {};
  for (const { field, claim } of settings.claims) {
    const value = user.profile[field];
    if (value !== undefined) claims[claim] = value;
  }
  return claims;
}

/** oidc-provider's `claims` setting for the profile scope and the custom ones, and the custom scopes to offer. */
export function profileScopes(settings: ProfileSettings): { claims: Record<string, string[]>; extraScopes: string[] } {
  const claims: Record<string, string[]> = { profile: [...STANDARD_PROFILE_CLAIMS] };
  for (const { claim, scope } of settings.claims) (claims[scope] ??= []).push(claim);
  return { claims, extraScopes: Object.keys(claims).filter((scope) => !['profile', 'email', 'phone'].includes(scope)) };
}
