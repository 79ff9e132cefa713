import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Mailcow: the server at SERVER; its profile endpoint wants the token and, again, the code.
export const mailcow = declareOAuth2Provider({
  id: 'mailcow',
  name: 'Mailcow',
  settings: { server: { kind: 'url', default: 'https://hosted.mailcow.de' } },
  authorizeUrl: (s) => `${s.server as string}/oauth/authorize`,
  tokenUrl: (s) => `${s.server as string}/oauth/token`,
  scope: ['profile'],
  profile: ({ api, settings, params }) => api.object(`${settings.server as string}/oauth/profile`, { token: { query: 'access_token' }, query: { code: params.get('code') ?? '' } }),
  uid: 'id',
  email: 'email',
  username: 'username',
  fullName: 'displayName',
});
