import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Stocktwits: the public stream of the user the token answer names.
export const stocktwits = declareOAuth2Provider({
  id: 'stocktwits',
  name: 'Stocktwits',
  authorizeUrl: 'https://api.stocktwits.com/api/2/oauth/authorize',
  tokenUrl: 'https://api.stocktwits.com/api/2/oauth/token',
  scopeDelimiter: ',',
  profile: ({ api, token }) => api.object(`https://api.stocktwits.com/api/2/streams/user/${encodeURIComponent(String(token.raw.user_id ?? ''))}.json`, { token: 'none' }),
  uid: 'user.id',
});
