import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Zoom: the user from /v2/users/me; its `verified` is 1 for a verified address.
export const zoom = declareOAuth2Provider({
  id: 'zoom',
  name: 'Zoom',
  authorizeUrl: 'https://zoom.us/oauth/authorize',
  tokenUrl: 'https://zoom.us/oauth/token',
  profile: { url: 'https://api.zoom.us/v2/users/me' },
  uid: 'id',
  email: 'email',
  verified: (data) => data.verified === 1 || data.verified === true,
  firstName: 'first_name',
  lastName: 'last_name',
});
