import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// hubiC (OVH, closed to new users): the account under the token type the
// exchange answered (`Bearer`, as hubiC writes it); its address is the uid.
// The redirect URI goes as https, as the reference sends it.
export const hubic = declareOAuth2Provider({
  id: 'hubic',
  name: 'Hubic',
  authorizeUrl: 'https://api.hubic.com/oauth/auth',
  tokenUrl: 'https://api.hubic.com/oauth/token',
  redirectUriProtocol: 'https',
  profile: ({ api, token }) => api.object('https://api.hubic.com/1.0/account', { token: { scheme: String(token.raw.token_type ?? 'Bearer') } }),
  uid: 'email',
  email: 'email',
  username: (data) => `${String(data.firstname ?? '')}${String(data.lastname ?? '')}`.toLowerCase(),
  firstName: 'firstname',
  lastName: 'lastname',
});
