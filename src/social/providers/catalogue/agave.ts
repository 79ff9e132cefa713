import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const agave = declareOAuth2Provider({
  id: 'agave',
  name: 'Agave',
  settings: { api_url: { kind: 'url', default: 'https://public.agaveapi.co' } },
  authorizeUrl: (s) => `${s.api_url as string}/authorize`,
  tokenUrl: (s) => `${s.api_url as string}/token`,
  scope: ['PRODUCTION'],
  profile: ({ api, settings, token }) =>
    api.object(`${settings.api_url as string}/profiles/v2/me`, { query: { access_token: token.tokens.accessToken } }).then((answer) => (answer.result as Record<string, unknown> | undefined) ?? {}),
  uid: 'create_time',
  email: 'email',
  username: 'username',
  fullName: (data) => [data.first_name, data.last_name].filter((part) => typeof part === 'string').join(' '),
});
