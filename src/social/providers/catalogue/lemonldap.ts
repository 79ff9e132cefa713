import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// LemonLDAP::NG: the portal at LEMONLDAP_URL; userinfo is POSTed, and the
// reference keeps it with `sub` renamed `id`.
export const lemonldap = declareOAuth2Provider({
  id: 'lemonldap',
  name: 'LemonLDAP::NG',
  settings: { lemonldap_url: { kind: 'url', required: true } },
  authorizeUrl: (s) => `${s.lemonldap_url as string}/oauth2/authorize`,
  tokenUrl: (s) => `${s.lemonldap_url as string}/oauth2/token`,
  scope: ['openid', 'profile', 'email'],
  profile: async ({ api, settings }) => {
    const { sub, ...rest } = await api.object(`${settings.lemonldap_url as string}/oauth2/userinfo`, { method: 'POST' });
    return { ...rest, id: sub };
  },
  uid: 'id',
  email: 'email',
  username: 'preferred_username',
  fullName: 'name',
});
