import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { pickObject } from '../../kit/fields.js';

// Stack Exchange: the user on SITE (stackoverflow by default); the app's `key` is its API key.
export const stackexchange = declareOAuth2Provider({
  id: 'stackexchange',
  name: 'Stack Exchange',
  settings: { site: { kind: 'string', default: 'stackoverflow' } },
  authorizeUrl: 'https://stackexchange.com/oauth',
  tokenUrl: 'https://stackexchange.com/oauth/access_token',
  profile: async ({ api, settings, context }) =>
    pickObject(await api.object('https://api.stackexchange.com/2.1/me', { token: { query: 'access_token' }, query: { key: context.app.key, site: settings.site as string } }), 'items.0'),
  uid: 'account_id',
  username: 'display_name',
});
