import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const cilogon = declareOAuth2Provider({
  id: 'cilogon',
  name: 'CILogon',
  authorizeUrl: 'https://cilogon.org/authorize',
  tokenUrl: 'https://cilogon.org/oauth2/token',
  scope: (_s, queryEmail) => ['profile', 'org.cilogon.userinfo', 'openid', ...(queryEmail ? ['email'] : [])],
  profile: { url: 'https://cilogon.org/oauth2/userinfo', token: { query: 'access_token' }, query: { alt: 'json' } },
  uid: 'sub',
  email: 'email',
  verified: (data) => Boolean(data.verified_email),
  firstName: 'given_name',
  lastName: 'family_name',
});
