import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Open edX at EDX_URL: /me, and the account record when /me has no address.
// The redirect URI always goes as https, as the reference sends it (Open edX
// registers https callbacks), also behind a proxy that forwards plain http.
export const edx = declareOAuth2Provider({
  id: 'edx',
  name: 'Edx',
  settings: { edx_url: { kind: 'url', default: 'https://edx.org' } },
  authorizeUrl: (s) => `${s.edx_url as string}/oauth2/authorize/`,
  tokenUrl: (s) => `${s.edx_url as string}/oauth2/access_token`,
  scope: ['profile'],
  redirectUriProtocol: 'https',
  profile: async ({ api, settings }) => {
    const me = await api.object(`${settings.edx_url as string}/api/user/v1/me`);
    if ((me.email !== undefined && me.email !== null) || typeof me.username !== 'string') return me;
    return api.object(`${settings.edx_url as string}/api/user/v1/accounts/${encodeURIComponent(me.username)}`);
  },
  uid: 'username',
  email: 'email',
  username: 'username',
  fullName: 'name',
});
