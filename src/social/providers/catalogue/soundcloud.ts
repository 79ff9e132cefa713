import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const soundcloud = declareOAuth2Provider({
  id: 'soundcloud',
  name: 'SoundCloud',
  authorizeUrl: 'https://soundcloud.com/connect',
  tokenUrl: 'https://api.soundcloud.com/oauth2/token',
  profile: { url: 'https://api.soundcloud.com/me.json', token: { query: 'oauth_token' } },
  uid: 'urn',
  email: 'email',
  username: 'username',
  fullName: 'full_name',
});
