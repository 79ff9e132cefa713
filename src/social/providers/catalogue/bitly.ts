import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const bitly = declareOAuth2Provider({
  id: 'bitly',
  name: 'Bitly',
  authorizeUrl: 'https://bitly.com/oauth/authorize',
  tokenUrl: 'https://api-ssl.bitly.com/oauth/access_token',
  profile: { url: 'https://api-ssl.bitly.com/v3/user/info', token: { query: 'access_token' }, unwrap: 'data' },
  uid: 'login',
  username: 'login',
  fullName: 'full_name',
});
