import { declareOAuth2Provider, type Settings } from '../../kit/declared-provider.js';

// Battle.net: REGION picks the OAuth host (China has its own); the account
// keeps the region, and a Chinese account's uid is suffixed `-cn`, as in the reference.
const REGIONS = ['apac', 'cn', 'eu', 'kr', 'sea', 'tw', 'us'];
const base = (s: Settings) => (s.region === 'cn' ? 'https://oauth.battlenet.com.cn' : 'https://oauth.battle.net');

export const battlenet = declareOAuth2Provider({
  id: 'battlenet',
  name: 'Battle.net',
  settings: { region: { kind: 'string', oneOf: REGIONS, default: 'us' } },
  authorizeUrl: (s) => `${base(s)}/authorize`,
  tokenUrl: (s) => `${base(s)}/token`,
  profile: async ({ api, settings }) => ({ ...(await api.object(`${base(settings)}/userinfo`)), region: settings.region === 'sea' ? 'us' : settings.region }),
  uid: (data) => (data.id === undefined ? undefined : data.region === 'cn' ? `${String(data.id)}-cn` : data.id),
  username: 'battletag',
});
