import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Weibo: users/show of the uid the token answer names (often served as text/plain JSON).
export const weibo = declareOAuth2Provider({
  id: 'weibo',
  name: 'Weibo',
  authorizeUrl: 'https://api.weibo.com/oauth2/authorize',
  tokenUrl: 'https://api.weibo.com/oauth2/access_token',
  profile: ({ api, token }) => api.object('https://api.weibo.com/2/users/show.json', { token: { query: 'access_token' }, query: { uid: String(token.raw.uid ?? '') } }),
  uid: 'idstr',
  username: 'screen_name',
  fullName: 'name',
});
