import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const wahoo = declareOAuth2Provider({
  id: 'wahoo',
  name: 'Wahoo',
  authorizeUrl: 'https://api.wahooligan.com/oauth/authorize',
  tokenUrl: 'https://api.wahooligan.com/oauth/token',
  scope: (_s, queryEmail) => (queryEmail ? ['user_read', 'email'] : ['user_read']),
  profile: { url: 'https://api.wahooligan.com/v1/user' },
  uid: 'id',
  email: 'email',
});
