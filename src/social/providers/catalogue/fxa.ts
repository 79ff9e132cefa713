import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Mozilla accounts (Firefox Accounts): OAUTH_ENDPOINT and PROFILE_ENDPOINT.
export const fxa = declareOAuth2Provider({
  id: 'fxa',
  name: 'Firefox Accounts',
  settings: {
    oauth_endpoint: { kind: 'url', default: 'https://oauth.accounts.firefox.com/v1' },
    profile_endpoint: { kind: 'url', default: 'https://profile.accounts.firefox.com/v1' },
  },
  authorizeUrl: (s) => `${s.oauth_endpoint as string}/authorization`,
  tokenUrl: (s) => `${s.oauth_endpoint as string}/token`,
  scope: ['profile'],
  profile: { url: (s) => `${s.profile_endpoint as string}/profile` },
  uid: 'uid',
  email: 'email',
});
