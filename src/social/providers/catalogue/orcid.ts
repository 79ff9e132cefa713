import { declareOAuth2Provider, type Settings } from '../../kit/declared-provider.js';

// ORCID: BASE_DOMAIN (orcid.org, or the sandbox) and MEMBER_API (the member
// API host, which wants the token; the public one does not); the record of
// the iD the token answer names.
const apiHost = (s: Settings) => `${s.member_api === true ? 'api' : 'pub'}.${s.base_domain as string}`;

export const orcid = declareOAuth2Provider({
  id: 'orcid',
  name: 'Orcid.org',
  settings: { base_domain: { kind: 'string', default: 'orcid.org' }, member_api: { kind: 'boolean', default: false } },
  authorizeUrl: (s) => `https://${s.base_domain as string}/oauth/authorize`,
  tokenUrl: (s) => `https://${apiHost(s)}/oauth/token`,
  scope: ['/authenticate'],
  profile: ({ api, settings, token }) =>
    api.object(`https://${apiHost(settings)}/v3.0/${encodeURIComponent(String(token.raw.orcid ?? ''))}/record`, {
      headers: { accept: 'application/orcid+json' },
      token: settings.member_api === true ? { query: 'access_token' } : 'none',
    }),
  uid: 'orcid-identifier.path',
  email: 'person.emails.email.0.email',
  firstName: 'person.name.given-names.value',
  lastName: 'person.name.family-name.value',
});
