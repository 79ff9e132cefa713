import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Asana: /users/me wraps the user in `data`; its id is `gid` (`id` on old accounts).
export const asana = declareOAuth2Provider({
  id: 'asana',
  name: 'Asana',
  authorizeUrl: 'https://app.asana.com/-/oauth_authorize',
  tokenUrl: 'https://app.asana.com/-/oauth_token',
  profile: { url: 'https://app.asana.com/api/1.0/users/me', token: { query: 'access_token' }, unwrap: 'data' },
  uid: (data) => data.gid ?? data.id,
  email: 'email',
  fullName: 'name',
});
