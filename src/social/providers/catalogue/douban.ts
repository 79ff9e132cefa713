import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const douban = declareOAuth2Provider({
  id: 'douban',
  name: 'Douban',
  authorizeUrl: 'https://www.douban.com/service/auth2/auth',
  tokenUrl: 'https://www.douban.com/service/auth2/token',
  profile: { url: 'https://api.douban.com/v2/user/~me' },
  uid: 'id',
  username: 'id',
  firstName: 'name',
});
