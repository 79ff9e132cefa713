import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const digitalocean = declareOAuth2Provider({
  id: 'digitalocean',
  name: 'DigitalOcean',
  authorizeUrl: 'https://cloud.digitalocean.com/v1/oauth/authorize',
  tokenUrl: 'https://cloud.digitalocean.com/v1/oauth/token',
  profile: { url: 'https://api.digitalocean.com/v2/account' },
  uid: 'account.uuid',
  email: 'account.email',
});
