import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const tumblrOauth2 = declareOAuth2Provider({
  id: 'tumblr_oauth2',
  name: 'Tumblr',
  authorizeUrl: 'https://www.tumblr.com/oauth2/authorize',
  tokenUrl: 'https://api.tumblr.com/v2/oauth2/token',
  scope: ['read'],
  profile: { url: 'https://api.tumblr.com/v2/user/info', unwrap: 'response.user' },
  uid: 'name',
  firstName: 'name',
});
