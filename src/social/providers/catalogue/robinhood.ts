import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const robinhood = declareOAuth2Provider({
  id: 'robinhood',
  name: 'Robinhood',
  authorizeUrl: 'https://www.robinhood.com/oauth2/authorize/',
  tokenUrl: 'https://api.robinhood.com/oauth2/token/',
  scope: ['read'],
  profile: { url: 'https://api.robinhood.com/user/id/' },
  uid: 'id',
  username: 'username',
});
