import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const coinbase = declareOAuth2Provider({
  id: 'coinbase',
  name: 'Coinbase',
  authorizeUrl: 'https://www.coinbase.com/oauth/authorize',
  tokenUrl: 'https://www.coinbase.com/oauth/token',
  scope: ['wallet:user:email'],
  profile: { url: 'https://api.coinbase.com/v2/user', token: { query: 'access_token' } },
  // The reference reads the top level (v2 wraps the user in data; its data is kept as it came).
  uid: (data) => data.id ?? (data.data as Record<string, unknown> | undefined)?.id,
  email: (data) => data.email ?? (data.data as Record<string, unknown> | undefined)?.email,
});
