import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const meetup = declareOAuth2Provider({
  id: 'meetup',
  name: 'Meetup',
  authorizeUrl: 'https://secure.meetup.com/oauth2/authorize',
  tokenUrl: 'https://secure.meetup.com/oauth2/access',
  profile: { url: 'https://api.meetup.com/2/member/self', token: { query: 'access_token' } },
  uid: 'id',
  email: 'email',
  fullName: 'name',
});
