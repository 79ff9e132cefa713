import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const eveonline = declareOAuth2Provider({
  id: 'eveonline',
  name: 'EVE Online',
  authorizeUrl: 'https://login.eveonline.com/oauth/authorize',
  tokenUrl: 'https://login.eveonline.com/oauth/token',
  // No scope is needed to log in; kept tokens get publicData, as the reference asks.
  scope: (_settings, _queryEmail, storeTokens) => (storeTokens ? ['publicData'] : []),
  profile: { url: 'https://login.eveonline.com/oauth/verify' },
  uid: 'CharacterOwnerHash',
  fullName: 'CharacterName',
});
