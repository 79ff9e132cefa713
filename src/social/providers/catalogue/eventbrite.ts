import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { isObject } from '../../kit/api.js';
import { isTrue } from '../../kit/claims.js';

// Eventbrite: every address of the user with Eventbrite's own verified
// flags; the primary one first. An empty scope is sent, as the reference does.
export const eventbrite = declareOAuth2Provider({
  id: 'eventbrite',
  name: 'Eventbrite',
  authorizeUrl: 'https://www.eventbrite.com/oauth/authorize',
  tokenUrl: 'https://www.eventbrite.com/oauth/token',
  scope: [''],
  profile: { url: 'https://www.eventbriteapi.com/v3/users/me/', token: { query: 'token' } },
  uid: 'id',
  emails: (data) => {
    const all = (Array.isArray(data.emails) ? data.emails.filter(isObject) : []).filter((e) => typeof e.email === 'string');
    const primary = all.find((e) => isTrue(e.primary) && isTrue(e.verified)) ?? all[0];
    return all.map((e) => ({ email: e.email as string, verified: isTrue(e.verified), primary: e === primary }));
  },
  fullName: 'name',
  firstName: 'first_name',
  lastName: 'last_name',
});
