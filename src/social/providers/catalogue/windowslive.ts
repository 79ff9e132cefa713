import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const windowslive = declareOAuth2Provider({
  id: 'windowslive',
  name: 'Live',
  authorizeUrl: 'https://login.live.com/oauth20_authorize.srf',
  tokenUrl: 'https://login.live.com/oauth20_token.srf',
  scope: ['wl.basic', 'wl.emails'],
  profile: { url: 'https://apis.live.net/v5.0/me' },
  uid: 'id',
  email: 'emails.preferred',
  firstName: 'first_name',
  lastName: 'last_name',
});
