import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const globus = declareOAuth2Provider({
  id: 'globus',
  name: 'Globus',
  authorizeUrl: 'https://auth.globus.org/v2/oauth2/authorize',
  tokenUrl: 'https://auth.globus.org/v2/oauth2/token',
  scope: (_s, queryEmail) => ['openid', 'profile', 'offline_access', ...(queryEmail ? ['email'] : [])],
  profile: ({ api, token }) => api.object('https://auth.globus.org/v2/oauth2/userinfo', { query: { access_token: token.tokens.accessToken } }),
  uid: 'sub',
  email: 'email',
  username: 'preferred_username',
  fullName: 'name',
});
