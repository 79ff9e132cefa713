import { declareOAuth2Provider, type Settings } from '../../kit/declared-provider.js';

// Authentiq at PROVIDER_URL: userinfo, of which the reference keeps only
// the identity claims. The scopes always include openid, and `email` goes
// with Authentiq's modifiers: `r` when an address is required at signup,
// `s` (signed, i.e. verified) always, as the reference's email verification
// setting always reads true there.
const IDENTITY_CLAIMS = new Set(['sub', 'name', 'given_name', 'family_name', 'middle_name', 'nickname', 'preferred_username', 'profile', 'picture', 'website', 'email', 'email_verified', 'gender', 'birthdate', 'zoneinfo', 'locale', 'phone_number', 'phone_number_verified', 'address', 'updated_at', 'aq:location']);
const at = (s: Settings, path: string) => new URL(path, String(s.provider_url).endsWith('/') ? String(s.provider_url) : `${String(s.provider_url)}/`).toString();

export const authentiq = declareOAuth2Provider({
  id: 'authentiq',
  name: 'Authentiq',
  settings: { provider_url: { kind: 'url', default: 'https://connect.authentiq.io/' } },
  authorizeUrl: (s) => at(s, 'authorize'),
  tokenUrl: (s) => at(s, 'token'),
  scope: (_s, queryEmail) => ['aq:name', 'aq:push', ...(queryEmail ? ['email'] : [])],
  finalScope: (scope, context) => {
    const sent = scope.includes('openid') ? [...scope] : [...scope, 'openid'];
    return sent.map((one) => (one === 'email' ? `email~${context.emailRequired ? 'r' : ''}s` : one));
  },
  profile: { url: (s) => at(s, 'userinfo') },
  storedData: (data) => Object.fromEntries(Object.entries(data).filter(([claim]) => IDENTITY_CLAIMS.has(claim))),
  uid: 'sub',
  email: 'email',
  verified: 'email_verified',
  username: (data) => data.preferred_username ?? data.given_name,
  fullName: 'name',
  firstName: 'given_name',
  lastName: 'family_name',
});
