import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Kakao: /v2/user/me; the address and its verified flag sit in kakao_account.
export const kakao = declareOAuth2Provider({
  id: 'kakao',
  name: 'Kakao',
  authorizeUrl: 'https://kauth.kakao.com/oauth/authorize',
  tokenUrl: 'https://kauth.kakao.com/oauth/token',
  profile: { url: 'https://kapi.kakao.com/v2/user/me' },
  uid: 'id',
  email: 'kakao_account.email',
  verified: 'kakao_account.is_email_verified',
  username: 'kakao_account.profile.nickname',
});
