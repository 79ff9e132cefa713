import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { pick } from '../../kit/fields.js';
import { isObject } from '../../kit/api.js';

// Clever: /me names the user, whose record (kept whole, `data` wrapper and all) comes from /users/<id>.
export const clever = declareOAuth2Provider({
  id: 'clever',
  name: 'Clever',
  authorizeUrl: 'https://clever.com/oauth/authorize',
  tokenUrl: 'https://clever.com/oauth/tokens',
  scope: ['read:district_admins', 'read:districts', 'read:resources', 'read:school_admins', 'read:schools', 'read:sections', 'read:student_contacts', 'read:students', 'read:teachers', 'read:user_id'],
  profile: async ({ api }) => {
    const me = await api.object('https://api.clever.com/v3.0/me');
    return api.object(`https://api.clever.com/v3.0/users/${encodeURIComponent(String(pick(me, 'data.id') ?? ''))}`);
  },
  uid: 'data.id',
  email: 'data.email',
  firstName: 'data.name.first',
  lastName: 'data.name.last',
  username: (data) => {
    const roles = pick(data, 'data.roles');
    const first = isObject(roles) ? Object.values(roles)[0] : undefined;
    return pick(first, 'credentials.district_username');
  },
});
