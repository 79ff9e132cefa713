import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { pickObject } from '../../kit/fields.js';

export const disqus = declareOAuth2Provider({
  id: 'disqus',
  name: 'Disqus',
  authorizeUrl: 'https://disqus.com/api/oauth/2.0/authorize/',
  tokenUrl: 'https://disqus.com/api/oauth/2.0/access_token/',
  scope: (_s, queryEmail) => (queryEmail ? ['read', 'email'] : ['read']),
  scopeDelimiter: ',',
  // Disqus wants the app's key and secret beside the user's token.
  profile: async ({ api, context }) =>
    pickObject(await api.object('https://disqus.com/api/3.0/users/details.json', { token: { query: 'access_token' }, query: { api_key: context.app.clientId, api_secret: context.app.secret } }), 'response'),
  uid: 'id',
  email: 'email',
  // The reference trusts Disqus's address.
  verified: true,
  username: 'username',
  fullName: 'name',
});
