import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Spotify: the user from /v1/me (token in the query); its address is not verified by Spotify.
export const spotify = declareOAuth2Provider({
  id: 'spotify',
  name: 'Spotify',
  authorizeUrl: 'https://accounts.spotify.com/authorize',
  tokenUrl: 'https://accounts.spotify.com/api/token',
  scope: (_s, queryEmail) => (queryEmail ? ['user-read-email'] : []),
  profile: { url: 'https://api.spotify.com/v1/me', token: { query: 'access_token' } },
  uid: 'id',
  email: 'email',
  fullName: 'display_name',
});
