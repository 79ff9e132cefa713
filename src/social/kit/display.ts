// The `display` of a connected account, the reference's rule: the first
// username-like field, else an email, else a name, else first plus last
// name, else the provider's name. `preferred_username` is not among the
// username-like fields, so an OpenID Connect account shows its email.

const SINGLE: readonly (readonly string[])[] = [
  ['username', 'userName', 'user_name', 'login', 'handle'],
  ['email', 'Email', 'mail', 'email_address'],
  ['name', 'display_name', 'displayName', 'displayname', 'Display_Name', 'nickname'],
  ['full_name', 'fullName'],
];
const FIRST = ['first_name', 'firstname', 'firstName', 'First_Name', 'given_name', 'givenName'];
const LAST = ['last_name', 'lastname', 'lastName', 'Last_Name', 'family_name', 'familyName', 'surname'];

function groupValue(data: Record<string, unknown>, keys: readonly string[]): string {
  let found = '';
  for (const key of keys) {
    const value = data[key];
    // The reference lets a later key of the group overwrite an earlier one.
    if (typeof value === 'string') found = value.trim();
  }
  return found;
}

export function accountDisplay(data: Record<string, unknown> | null, providerName: string): string {
  if (data) {
    for (const keys of SINGLE) {
      for (const key of keys) {
        const value = data[key];
        if (typeof value === 'string' && value.trim()) return value.trim();
      }
    }
    const full = `${groupValue(data, FIRST)} ${groupValue(data, LAST)}`.trim();
    if (full) return full;
  }
  return providerName;
}
