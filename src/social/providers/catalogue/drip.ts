import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Drip: the user is the first of `users`, with no id of its own. The
// reference takes Python's hash() of the address as the uid, which changes
// with every process; the address itself is the stable uid here (the import
// turns the reference's accounts to it: docs/import-allauth.md).
export const drip = declareOAuth2Provider({
  id: 'drip',
  name: 'Drip',
  authorizeUrl: 'https://www.getdrip.com/oauth/authorize',
  tokenUrl: 'https://www.getdrip.com/oauth/token',
  profile: { url: 'https://api.getdrip.com/v2/user', unwrap: 'users.0' },
  uid: 'email',
  email: 'email',
  verified: true,
  fullName: 'name',
});
