import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const baidu = declareOAuth2Provider({
  id: 'baidu',
  name: 'Baidu',
  authorizeUrl: 'https://openapi.baidu.com/oauth/2.0/authorize',
  tokenUrl: 'https://openapi.baidu.com/oauth/2.0/token',
  profile: { url: 'https://openapi.baidu.com/rest/2.0/passport/users/getLoggedInUser', token: { query: 'access_token' } },
  uid: 'uid',
  username: 'uid',
  fullName: 'uname',
});
