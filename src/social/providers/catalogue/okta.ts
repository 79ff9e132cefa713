import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Okta: the org authorization server of OKTA_BASE_URL (a host name, no
// scheme, as in the reference), the user from userinfo; uid_field picks
// another claim than sub.
const base = (s: Record<string, unknown>) => `https://${s.okta_base_url as string}/oauth2/v1`;

export const okta = declareOAuth2Provider({
  id: 'okta',
  name: 'Okta',
  settings: { okta_base_url: { kind: 'string', required: true }, uid_field: { kind: 'string', default: 'sub' } },
  authorizeUrl: (s) => `${base(s)}/authorize`,
  tokenUrl: (s) => `${base(s)}/token`,
  scope: ['openid', 'profile', 'email', 'offline_access'],
  profile: { url: (s) => `${base(s)}/userinfo` },
  uid: (data, s) => data[s.uid_field as string],
  email: 'email',
  verified: 'email_verified',
  username: (data) => (typeof data.preferred_username === 'string' ? data.preferred_username.split('@')[0] : undefined),
  fullName: 'name',
  firstName: 'given_name',
  lastName: 'family_name',
  validate: (app) => (/^[A-Za-z0-9.-]+(:\d+)?$/.test(String(app.options.okta_base_url)) ? null : 'OKTA_BASE_URL: expected a host name without scheme, e.g. dev-1.okta.com'),
});
