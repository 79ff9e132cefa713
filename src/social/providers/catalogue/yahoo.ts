import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Yahoo: the OpenID Connect userinfo endpoint, with Yahoo's verified flag.
export const yahoo = declareOAuth2Provider({
  id: 'yahoo',
  name: 'Yahoo',
  authorizeUrl: 'https://api.login.yahoo.com/oauth2/request_auth',
  tokenUrl: 'https://api.login.yahoo.com/oauth2/get_token',
  scope: ['profile', 'email'],
  profile: { url: 'https://api.login.yahoo.com/openid/v1/userinfo' },
  uid: 'sub',
  email: 'email',
  verified: 'email_verified',
  fullName: 'name',
  firstName: 'given_name',
  lastName: 'family_name',
});
