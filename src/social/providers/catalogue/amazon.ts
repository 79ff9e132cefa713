import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { isObject } from '../../kit/api.js';

// Login with Amazon: the profile from /user/profile; the legacy answer
// (a `Profile` object) is reshaped as the reference does; first and last
// name are the name split at its first space.
const split = (name: unknown, part: 0 | 1) => (typeof name === 'string' && name.includes(' ') ? [name.slice(0, name.indexOf(' ')), name.slice(name.indexOf(' ') + 1)][part] : part === 0 ? name : undefined);

export const amazon = declareOAuth2Provider({
  id: 'amazon',
  name: 'Amazon',
  authorizeUrl: 'https://www.amazon.com/ap/oa',
  tokenUrl: 'https://api.amazon.com/auth/o2/token',
  scope: ['profile'],
  profile: async ({ api }) => {
    const answer = await api.object('https://api.amazon.com/user/profile', { token: { query: 'access_token' } });
    const legacy = answer.Profile;
    return isObject(legacy) ? { user_id: legacy.CustomerId, name: legacy.Name, email: legacy.PrimaryEmail } : answer;
  },
  uid: 'user_id',
  email: 'email',
  fullName: 'name',
  firstName: (data) => split(data.name, 0),
  lastName: (data) => split(data.name, 1),
});
