import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const ynab = declareOAuth2Provider({
  id: 'ynab',
  name: 'YNAB',
  authorizeUrl: 'https://app.youneedabudget.com/oauth/authorize',
  tokenUrl: 'https://app.youneedabudget.com/oauth/token',
  scope: ['read-only'],
  profile: { url: 'https://api.youneedabudget.com/v1/user' },
  uid: 'data.user.id',
});
