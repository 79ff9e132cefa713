import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const edmodo = declareOAuth2Provider({
  id: 'edmodo',
  name: 'Edmodo',
  authorizeUrl: 'https://api.edmodo.com/oauth/authorize',
  tokenUrl: 'https://api.edmodo.com/oauth/token',
  scope: ['basic'],
  profile: { url: 'https://api.edmodo.com/users/me', token: { query: 'access_token' } },
  uid: 'id',
  email: 'email',
  firstName: 'first_name',
  lastName: 'last_name',
});
