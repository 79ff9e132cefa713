import type { Db } from '../store/db.js';
import { findUserById } from '../store/users.js';
import { findPhoneOfUser } from '../store/phones.js';
import type { ProfileSettings } from '../config/profile.js';
import { nameClaims, profileFieldClaims } from './profile-claims.js';

// The provider's accounts are our users: an active user by id, with the
// claims of the standard scopes and of IDP_OIDC_PROFILE_CLAIMS.

export function findAccount(db: Db, profile: ProfileSettings) {
  return async (_ctx: unknown, sub: string) => {
    if (!/^\d{1,15}$/.test(sub)) return undefined;
    const user = await findUserById(db, Number(sub));
    if (!user || !user.isActive) return undefined;
    return {
      accountId: sub,
      claims: async () => {
        const phone = await findPhoneOfUser(db, user.id);
        return {
          // Custom fields first: their names never take a standard claim's (config/profile.ts refuses those).
          ...profileFieldClaims(profile, user),
          sub,
          ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
          ...(user.username ? { preferred_username: user.username } : {}),
          ...nameClaims(user),
          ...(phone ? { phone_number: phone.phone, phone_number_verified: phone.verified } : {}),
        };
      },
    };
  };
}
