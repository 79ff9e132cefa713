import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Gumroad: the user's username is its profile URL's last part.
export const gumroad = declareOAuth2Provider({
  id: 'gumroad',
  name: 'Gumroad',
  settings: { gumroad_url: { kind: 'url', default: 'https://gumroad.com' } },
  authorizeUrl: (s) => `${s.gumroad_url as string}/oauth/authorize`,
  tokenUrl: (s) => `${s.gumroad_url as string}/oauth/token`,
  scope: ['edit_products'],
  profile: { url: 'https://api.gumroad.com/v2/user', token: { query: 'access_token' }, unwrap: 'user' },
  uid: 'user_id',
  email: 'email',
  username: (data) => (typeof data.url === 'string' ? data.url.replace('https://gumroad.com/', '') : undefined),
  fullName: 'name',
});
