import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Feedly: HOST (cloud.feedly.com, or the sandbox); the API wants the `OAuth` scheme.
export const feedly = declareOAuth2Provider({
  id: 'feedly',
  name: 'Feedly',
  settings: { host: { kind: 'string', default: 'cloud.feedly.com' } },
  authorizeUrl: (s) => `https://${s.host as string}/v3/auth/auth`,
  tokenUrl: (s) => `https://${s.host as string}/v3/auth/token`,
  scope: ['https://cloud.feedly.com/subscriptions'],
  profile: { url: (s) => `https://${s.host as string}/v3/profile`, token: { scheme: 'OAuth' } },
  uid: 'id',
  email: 'email',
  firstName: 'givenName',
  lastName: 'familyName',
});
