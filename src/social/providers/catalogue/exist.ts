import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const exist = declareOAuth2Provider({
  id: 'exist',
  name: 'Exist.io',
  authorizeUrl: 'https://exist.io/oauth2/authorize',
  tokenUrl: 'https://exist.io/oauth2/access_token',
  scope: ['mood_read', 'health_read', 'productivity_read'],
  profile: { url: 'https://exist.io/api/2/accounts/profile/' },
  uid: 'username',
  username: 'username',
  firstName: 'first_name',
  lastName: 'last_name',
});
