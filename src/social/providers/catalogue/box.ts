import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const box = declareOAuth2Provider({
  id: 'box',
  name: 'Box',
  authorizeUrl: 'https://account.box.com/api/oauth2/authorize',
  tokenUrl: 'https://api.box.com/oauth2/token',
  profile: { url: 'https://api.box.com/2.0/users/me', token: { query: 'access_token' } },
  uid: 'id',
  email: 'email',
  fullName: 'display_name',
});
