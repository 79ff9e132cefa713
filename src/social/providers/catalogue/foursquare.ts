import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const foursquare = declareOAuth2Provider({
  id: 'foursquare',
  name: 'Foursquare',
  authorizeUrl: 'https://foursquare.com/oauth2/authenticate',
  tokenUrl: 'https://foursquare.com/oauth2/access_token',
  profile: { url: 'https://api.foursquare.com/v2/users/self', token: { query: 'oauth_token' }, query: { v: '20140116' }, unwrap: 'response.user' },
  uid: 'id',
  email: 'contact.email',
  firstName: 'firstname',
  lastName: 'lastname',
});
