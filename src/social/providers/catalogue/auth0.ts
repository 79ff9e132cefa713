import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Auth0: the tenant at AUTH0_URL (with its scheme), the user from /userinfo
// (token in the query, as the reference sends it); not verified by Auth0's word.
export const auth0 = declareOAuth2Provider({
  id: 'auth0',
  name: 'Auth0',
  settings: { auth0_url: { kind: 'url', required: true } },
  authorizeUrl: (s) => `${s.auth0_url as string}/authorize`,
  tokenUrl: (s) => `${s.auth0_url as string}/oauth/token`,
  scope: ['openid', 'profile', 'email'],
  profile: { url: (s) => `${s.auth0_url as string}/userinfo`, token: { query: 'access_token' } },
  uid: 'sub',
  email: 'email',
  username: 'username',
  fullName: 'name',
});
