import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// MediaWiki (Wikimedia by default, REST_API for another wiki): the profile;
// the address only when the wiki has confirmed it (then verified); the
// reference keeps only these three fields. USER_AGENT goes on every call.
const userAgent = (s: Record<string, unknown>) => ({ 'user-agent': s.user_agent as string });

const confirmed = (data: Record<string, unknown>) => (data.confirmed_email ? data.email : undefined);

export const mediawiki = declareOAuth2Provider({
  id: 'mediawiki',
  name: 'MediaWiki',
  settings: {
    rest_api: { kind: 'url', default: 'https://meta.wikimedia.org/w/rest.php' },
    user_agent: { kind: 'string', default: 'django-allauth' },
    userpage_template: { kind: 'string' },
  },
  authorizeUrl: (s) => `${s.rest_api as string}/oauth2/authorize`,
  tokenUrl: (s) => `${s.rest_api as string}/oauth2/access_token`,
  token: (s) => ({ headers: userAgent(s) }),
  profile: ({ api, settings }) => api.object(`${settings.rest_api as string}/oauth2/resource/profile`, { headers: userAgent(settings) }),
  storedData: (data) => ({ email: confirmed(data) ?? null, realname: data.realname, username: data.username }),
  uid: 'sub',
  email: confirmed,
  verified: true,
  username: 'username',
  fullName: 'realname',
});
