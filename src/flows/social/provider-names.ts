import type { Identity } from '../../social/provider-type.js';

/** Django's auth_user names hold 150 characters; the reference cuts longer ones. */
const NAME_MAX_LENGTH = 150;

/**
 * The names a new account takes from its provider, as the reference's
 * populate_user sets them: the provider's first and last name, or else its
 * full name split at the first space.
 */
export function providerNames(identity: Identity): { firstName: string; lastName: string } {
  const [first, ...rest] = (identity.name ?? '').split(' ');
  return {
    firstName: (identity.firstName || first || '').slice(0, NAME_MAX_LENGTH),
    lastName: (identity.lastName || rest.join(' ')).slice(0, NAME_MAX_LENGTH),
  };
}
