import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Frontier (Elite Dangerous): the reference trusts Frontier's address.
export const frontier = declareOAuth2Provider({
  id: 'frontier',
  name: 'Frontier',
  authorizeUrl: 'https://auth.frontierstore.net/auth',
  tokenUrl: 'https://auth.frontierstore.net/token',
  scope: ['auth', 'capi'],
  profile: { url: 'https://auth.frontierstore.net/me' },
  uid: 'customer_id',
  email: 'email',
  verified: true,
  username: 'email',
  firstName: 'firstname',
  lastName: 'lastname',
});
