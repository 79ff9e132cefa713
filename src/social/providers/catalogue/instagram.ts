import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Instagram Basic Display: the user's id and username; Instagram gives no address.
export const instagram = declareOAuth2Provider({
  id: 'instagram',
  name: 'Instagram',
  authorizeUrl: 'https://api.instagram.com/oauth/authorize',
  tokenUrl: 'https://api.instagram.com/oauth/access_token',
  scope: ['user_profile'],
  profile: { url: 'https://graph.instagram.com/me', token: { query: 'access_token' }, query: { fields: ['id', 'username'] } },
  uid: 'id',
  username: 'username',
});
