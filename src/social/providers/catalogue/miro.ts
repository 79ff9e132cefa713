import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const miro = declareOAuth2Provider({
  id: 'miro',
  name: 'Miro',
  authorizeUrl: 'https://miro.com/oauth/authorize',
  tokenUrl: 'https://api.miro.com/v1/oauth/token',
  scope: ['identity:read'],
  profile: { url: 'https://api.miro.com/v1/users/me' },
  uid: 'id',
  email: 'email',
  // A registered Miro user has confirmed the address.
  verified: (data) => data.state === 'registered',
  fullName: 'name',
});
