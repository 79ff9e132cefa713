import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Amazon Cognito: the user pool's DOMAIN (with its scheme), the user from its
// userInfo endpoint; email_verified may arrive as the string "true". The
// callback path is the reference's `amazon-cognito`.
export const amazonCognito = declareOAuth2Provider({
  id: 'amazon_cognito',
  name: 'Amazon Cognito',
  slug: 'amazon-cognito',
  settings: { domain: { kind: 'url', required: true } },
  authorizeUrl: (s) => `${s.domain as string}/oauth2/authorize`,
  tokenUrl: (s) => `${s.domain as string}/oauth2/token`,
  scope: ['openid', 'profile', 'email'],
  profile: { url: (s) => `${s.domain as string}/oauth2/userInfo` },
  uid: 'sub',
  email: 'email',
  verified: 'email_verified',
  username: 'username',
  firstName: 'given_name',
  lastName: 'family_name',
});
