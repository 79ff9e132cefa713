import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { pick } from '../../kit/fields.js';
import { ProviderError } from '../../provider-type.js';

// Dwolla: ENVIRONMENT production or sandbox; the account is the link the token answer points to.
const host = (s: Record<string, unknown>) => (s.environment === 'sandbox' ? 'https://uat.dwolla.com' : 'https://www.dwolla.com');

export const dwolla = declareOAuth2Provider({
  id: 'dwolla',
  name: 'Dwolla',
  settings: { environment: { kind: 'string', oneOf: ['production', 'sandbox'], default: 'production' } },
  authorizeUrl: (s) => `${host(s)}/oauth/v2/authenticate`,
  tokenUrl: (s) => `${host(s)}/oauth/v2/token`,
  scopeDelimiter: '|',
  profile: async ({ api, token }) => {
    const href = pick(token.raw, '_links.account.href');
    // A URL from the answer: followed only to Dwolla's own hosts.
    if (typeof href !== 'string' || !/^https:\/\/[a-z0-9.-]+\.dwolla\.com\//.test(href)) throw new ProviderError('Dwolla: no account link');
    return api.object(href, { headers: { accept: 'application/vnd.dwolla.v1.hal+json' } });
  },
  uid: 'id',
  fullName: 'name',
});
