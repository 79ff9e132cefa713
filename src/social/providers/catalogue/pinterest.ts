import { declareOAuth2Provider, type Settings } from '../../kit/declared-provider.js';

// Pinterest: API_VERSION picks the API (v5 today; v1 stays the reference's
// default), PINTEREST_URL its host; client credentials by HTTP Basic (v3
// wants the exchange as a PUT). v5 keys the account on the username.
const api = (s: Settings) => `https://${s.pinterest_url as string}/${s.api_version as string}`;

export const pinterest = declareOAuth2Provider({
  id: 'pinterest',
  name: 'Pinterest',
  settings: { pinterest_url: { kind: 'string', default: 'api.pinterest.com' }, api_version: { kind: 'string', default: 'v1' } },
  authorizeUrl: 'https://www.pinterest.com/oauth/',
  tokenUrl: (s) => `${api(s)}/oauth/token`,
  token: (s) => ({ auth: 'basic', method: s.api_version === 'v3' ? 'PUT' : 'POST' }),
  scope: (s) => (s.api_version === 'v5' ? ['user_accounts:read'] : s.api_version === 'v3' ? ['read_users'] : ['read_public']),
  profile: async ({ api: call, settings }) => {
    const version = settings.api_version as string;
    const path = version === 'v5' ? 'user_account' : version === 'v3' ? 'users/me' : 'me';
    const answer = await call.object(`${api(settings)}/${path}`);
    // Before v5 the reference keeps only the `data` object.
    return version === 'v5' ? answer : ((answer.data as Record<string, unknown> | undefined) ?? {});
  },
  uid: (data, s) => (s.api_version === 'v5' ? data.username : data.id),
  username: 'username',
  firstName: 'first_name',
  lastName: 'last_name',
});
