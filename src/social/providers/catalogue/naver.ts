import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Naver: /v1/nid/me wraps the user in `response`; the reference trusts Naver's address.
export const naver = declareOAuth2Provider({
  id: 'naver',
  name: 'Naver',
  authorizeUrl: 'https://nid.naver.com/oauth2.0/authorize',
  tokenUrl: 'https://nid.naver.com/oauth2.0/token',
  profile: { url: 'https://openapi.naver.com/v1/nid/me', unwrap: 'response' },
  uid: 'id',
  email: 'email',
  verified: true,
});
