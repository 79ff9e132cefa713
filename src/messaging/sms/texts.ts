// What the SMS say. A code always stands on a line of its own, so people
// (and tests) can copy it without picking it out of a sentence.

export function phoneVerificationText(siteName: string, code: string): string {
  return `${siteName}: your code to verify this phone number is\n${code}\nIf you did not ask for it, ignore this message.`;
}

export function loginCodeText(siteName: string, code: string): string {
  return `${siteName}: your sign-in code is\n${code}\nIf you did not ask for it, ignore this message.`;
}

export function passwordResetCodeText(siteName: string, code: string): string {
  return `${siteName}: your password reset code is\n${code}\nIf you did not ask for it, ignore this message; your password stays as it is.`;
}

/** Sent instead of a code when someone tries to claim a number that already has an account. */
export function phoneTakenText(siteName: string): string {
  return `${siteName}: someone tried to use this phone number for an account, but it already belongs to one. If that was you, sign in or reset your password instead. Otherwise ignore this message.`;
}
