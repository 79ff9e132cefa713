/** A value of a custom profile field (ACCOUNT_PROFILE_SCHEMA). */
export type ProfileValue = string | number | boolean;

/** The custom profile fields a user has values for, by field name. */
export type ProfileValues = Readonly<Record<string, ProfileValue>>;

// An account as the flows see it: the user row plus its primary address.
export interface User {
  id: number;
  username: string | null;
  email: string | null;
  emailVerified: boolean;
  passwordHash: string | null;
  isActive: boolean;
  passwordChangedAt: number;
  /** The language of their last signup, login or change request (a LANGUAGES tag); null: none seen yet. */
  language: string | null;
  /** The reference's auth_user names; '' when not given. */
  firstName: string;
  lastName: string;
  /** Values of the deployment's own profile fields. */
  profile: ProfileValues;
}

/** Django marks an unusable password with a leading "!" (e.g. accounts made by social or passkey signup); none at all is unusable too. */
export function hasUsablePassword(user: User): boolean {
  return !!user.passwordHash && !user.passwordHash.startsWith('!');
}

/** Django's get_full_name(): the two names with a space between, trimmed. */
export function fullName(user: Pick<User, 'firstName' | 'lastName'>): string {
  return `${user.firstName} ${user.lastName}`.trim();
}
