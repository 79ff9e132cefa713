import { declareOAuth2Provider, type Settings } from '../../kit/declared-provider.js';

// TrainingPeaks: the sandbox unless USE_PRODUCTION.
const host = (s: Settings) => (s.use_production === true ? 'trainingpeaks.com' : 'sandbox.trainingpeaks.com');

export const trainingpeaks = declareOAuth2Provider({
  id: 'trainingpeaks',
  name: 'TrainingPeaks',
  settings: { use_production: { kind: 'boolean', default: false } },
  authorizeUrl: (s) => `https://oauth.${host(s)}/OAuth/Authorize`,
  tokenUrl: (s) => `https://oauth.${host(s)}/oauth/token`,
  scope: ['athlete:profile'],
  profile: { url: (s) => `https://api.${host(s)}/v1/athlete/profile` },
  uid: 'Id',
  email: 'Email',
  username: (data) => data.username ?? `${String(data.FirstName ?? '')}.${String(data.LastName ?? '')}`.toLowerCase(),
  firstName: 'FirstName',
  lastName: 'LastName',
  fullName: (data) => [data.FirstName, data.LastName].filter(Boolean).join(' '),
});
