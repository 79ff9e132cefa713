import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const daum = declareOAuth2Provider({
  id: 'Daum',
  name: 'Daum',
  authorizeUrl: 'https://apis.daum.net/oauth2/authorize',
  tokenUrl: 'https://apis.daum.net/oauth2/token',
  profile: { url: 'https://apis.daum.net/user/v1/show.json', token: { query: 'access_token' }, unwrap: 'result' },
  uid: 'id',
});
