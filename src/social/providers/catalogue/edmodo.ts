import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { pick } from '../../kit/fields.js';

// Edmodo: the user whole, plus the three fields the reference has always
// added to extra_data (user_type, profile_url, avatar_url), so that stored
// accounts keep their shape.
export const edmodo = declareOAuth2Provider({
  id: 'edmodo',
  name: 'Edmodo',
  authorizeUrl: 'https://api.edmodo.com/oauth/authorize',
  tokenUrl: 'https://api.edmodo.com/oauth/token',
  scope: ['basic'],
  profile: { url: 'https://api.edmodo.com/users/me', token: { query: 'access_token' } },
  storedData: (data) => ({ ...data, user_type: data.type ?? null, profile_url: data.url ?? null, avatar_url: pick(data, 'avatars.large') ?? null }),
  uid: 'id',
  email: 'email',
  firstName: 'first_name',
  lastName: 'last_name',
});
