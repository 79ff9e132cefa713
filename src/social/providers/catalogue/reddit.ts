import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Reddit: client credentials by HTTP Basic; Reddit refuses requests without
// a User-Agent of the app's own (USER_AGENT), on the token call too.
const userAgent = (s: Record<string, unknown>) => ({ 'user-agent': (s.user_agent as string | undefined) ?? 'django-allauth-header' });

export const reddit = declareOAuth2Provider({
  id: 'reddit',
  name: 'Reddit',
  settings: { user_agent: { kind: 'string' } },
  authorizeUrl: 'https://www.reddit.com/api/v1/authorize',
  tokenUrl: 'https://www.reddit.com/api/v1/access_token',
  token: (s) => ({ auth: 'basic', headers: userAgent(s) }),
  scope: ['identity'],
  profile: ({ api, settings }) => api.object('https://oauth.reddit.com/api/v1/me', { token: { scheme: 'bearer' }, headers: userAgent(settings) }),
  uid: 'name',
  username: 'name',
});
