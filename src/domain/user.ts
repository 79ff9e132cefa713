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
}

/** Django marks an unusable password with a leading "!" (e.g. accounts made by social or passkey signup); none at all is unusable too. */
export function hasUsablePassword(user: User): boolean {
  return !!user.passwordHash && !user.passwordHash.startsWith('!');
}
