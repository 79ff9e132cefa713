import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { isObject } from '../../kit/api.js';
import { pick } from '../../kit/fields.js';

// Patreon: VERSION v1 (the default) reads the current user; v2 reads the
// identity with its memberships, and the first membership's tier title is
// kept as `pledge_level` (null when that call fails), as in the reference.
const API = 'https://www.patreon.com/api/oauth2';
const USER_FIELDS = 'email,first_name,full_name,image_url,last_name,social_connections,thumb_url,url,vanity';

export const patreon = declareOAuth2Provider({
  id: 'patreon',
  name: 'Patreon',
  settings: { version: { kind: 'string', oneOf: ['v1', 'v2'], default: 'v1' } },
  authorizeUrl: 'https://www.patreon.com/oauth2/authorize',
  tokenUrl: `${API}/token`,
  scope: (s) => (s.version === 'v2' ? ['identity', 'identity[email]', 'campaigns', 'campaigns.members'] : ['pledges-to-me', 'users', 'my-campaign']),
  profile: async ({ api, settings }) => {
    if (settings.version !== 'v2') return (await api.object(`${API}/api/current_user`)).data as Record<string, unknown>;
    const identity = await api.object(`${API}/v2/identity`, { query: { include: 'memberships', 'fields[user]': USER_FIELDS } });
    const data = isObject(identity.data) ? identity.data : {};
    const membership = pick(data, 'relationships.memberships.data.0.id');
    let pledgeLevel: unknown = null;
    if (typeof membership === 'string') {
      const member = await api.answer(`${API}/v2/members/${encodeURIComponent(membership)}`, { query: { include: 'currently_entitled_tiers', 'fields[tier]': 'title' } });
      pledgeLevel = member.status === 200 ? (pick(member.body, 'included.0.attributes.title') ?? null) : null;
    }
    return { ...data, pledge_level: pledgeLevel };
  },
  uid: 'id',
  email: 'attributes.email',
  firstName: 'attributes.first_name',
  lastName: 'attributes.last_name',
  fullName: 'attributes.full_name',
});
