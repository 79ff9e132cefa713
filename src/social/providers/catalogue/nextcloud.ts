import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { pickObject } from '../../kit/fields.js';

// Nextcloud: the instance at SERVER (or the app's `server`); the token
// answer names the user, whose OCS record is the account's data.
export const nextcloud = declareOAuth2Provider({
  id: 'nextcloud',
  name: 'NextCloud',
  settings: { server: { kind: 'url', default: 'https://nextcloud.example.org' } },
  authorizeUrl: (s) => `${s.server as string}/apps/oauth2/authorize`,
  tokenUrl: (s) => `${s.server as string}/apps/oauth2/api/v1/token`,
  scope: ['read'],
  profile: async ({ api, settings, token }) => {
    const user = encodeURIComponent(String(token.raw.user_id ?? ''));
    return pickObject(await api.object(`${settings.server as string}/ocs/v1.php/cloud/users/${user}`, { query: { format: 'json' } }), 'ocs.data');
  },
  uid: 'id',
  email: 'email',
  username: 'displayname',
});
