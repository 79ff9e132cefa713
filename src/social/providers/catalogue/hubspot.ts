import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// HubSpot: the token's own metadata names the user (an address HubSpot has confirmed).
export const hubspot = declareOAuth2Provider({
  id: 'hubspot',
  name: 'Hubspot',
  authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
  tokenUrl: 'https://api.hubapi.com/oauth/v1/token',
  scope: ['oauth'],
  profile: ({ api, token }) => api.object(`https://api.hubapi.com/oauth/v1/access-tokens/${encodeURIComponent(token.tokens.accessToken)}`, { token: 'none' }),
  uid: 'user_id',
  email: 'user',
  verified: true,
});
