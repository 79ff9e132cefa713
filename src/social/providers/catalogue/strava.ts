import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Strava: the athlete; the default scope is one entry holding a comma, as Strava spells its scopes.
export const strava = declareOAuth2Provider({
  id: 'strava',
  name: 'Strava',
  authorizeUrl: 'https://www.strava.com/oauth/authorize',
  tokenUrl: 'https://www.strava.com/oauth/token',
  scope: ['read,activity:read'],
  profile: { url: 'https://www.strava.com/api/v3/athlete' },
  uid: 'id',
  email: 'email',
  username: 'username',
  firstName: 'firstname',
  lastName: 'lastname',
  fullName: (data) => [data.firstname, data.lastname].filter((part) => typeof part === 'string' && part).join(' '),
});
