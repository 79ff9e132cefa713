import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const doximity = declareOAuth2Provider({
  id: 'doximity',
  name: 'Doximity',
  authorizeUrl: 'https://auth.doximity.com/oauth/authorize',
  tokenUrl: 'https://auth.doximity.com/oauth/token',
  scope: ['basic', 'email'],
  profile: { url: 'https://www.doximity.com/api/v1/users/current' },
  uid: 'id',
  email: 'email',
  username: 'email',
  firstName: 'firstname',
  lastName: 'lastname',
  fullName: 'full_name',
});
