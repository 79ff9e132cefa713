import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Yandex ID: /info with the `OAuth` scheme; Yandex's addresses count as verified, as in the reference.
export const yandex = declareOAuth2Provider({
  id: 'yandex',
  name: 'Yandex',
  authorizeUrl: 'https://oauth.yandex.com/authorize',
  tokenUrl: 'https://oauth.yandex.ru/token',
  scope: (_s, queryEmail) => (queryEmail ? ['login:info', 'login:email'] : ['login:info']),
  profile: { url: 'https://login.yandex.ru/info', token: { scheme: 'OAuth' }, query: { format: 'json' } },
  uid: 'id',
  email: (data) => data.default_email ?? (Array.isArray(data.emails) ? data.emails[0] : undefined),
  verified: true,
  username: 'display_name',
  firstName: 'first_name',
  lastName: 'last_name',
});
