import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const twentythreeandme = declareOAuth2Provider({
  id: 'twentythreeandme',
  name: '23andMe',
  slug: '23andme',
  authorizeUrl: 'https://api.23andme.com/authorize',
  tokenUrl: 'https://api.23andme.com/token',
  scope: ['basic'],
  profile: { url: 'https://api.23andme.com/1/user/' },
  uid: 'id',
  email: 'email',
});
