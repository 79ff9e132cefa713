import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// NetIQ Access Manager at NETIQ_URL: userinfo; uid_field picks the claim.
const base = (s: Record<string, unknown>) => `${s.netiq_url as string}/nidp/oauth/nam`;

export const netiq = declareOAuth2Provider({
  id: 'netiq',
  name: 'NetIQ',
  settings: { netiq_url: { kind: 'url', required: true }, uid_field: { kind: 'string', default: 'sub' } },
  authorizeUrl: (s) => `${base(s)}/authz`,
  tokenUrl: (s) => `${base(s)}/token`,
  scope: ['openid', 'profile', 'email'],
  profile: { url: (s) => `${base(s)}/userinfo` },
  uid: (data, s) => data[s.uid_field as string],
  email: 'email',
  firstName: 'given_name',
  lastName: 'family_name',
});
