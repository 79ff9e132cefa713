import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// ShareFile: the account's SUBDOMAIN and control plane (APICP); DEFAULT_URL for the login page.
export const sharefile = declareOAuth2Provider({
  id: 'sharefile',
  name: 'ShareFile',
  settings: {
    subdomain: { kind: 'string', default: 'secure' },
    apicp: { kind: 'string', default: 'sharefile.com' },
    default_url: { kind: 'url', default: 'https://secure.sharefile.com' },
  },
  authorizeUrl: (s) => `${s.default_url as string}/oauth/authorize`,
  tokenUrl: (s) => `https://${s.subdomain as string}.${s.apicp as string}/oauth/token`,
  profile: { url: (s) => `https://${s.subdomain as string}.sf-api.com/sf/v3/Users` },
  uid: 'Id',
  email: 'Email',
  username: 'Username',
  fullName: 'FullName',
});
