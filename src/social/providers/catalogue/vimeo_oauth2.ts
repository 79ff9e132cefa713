import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const vimeoOauth2 = declareOAuth2Provider({
  id: 'vimeo_oauth2',
  name: 'Vimeo',
  authorizeUrl: 'https://api.vimeo.com/oauth/authorize',
  tokenUrl: 'https://api.vimeo.com/oauth/access_token',
  scope: ['public', 'private'],
  profile: { url: 'https://api.vimeo.com/me/' },
  // The user's URI, /users/<id>: its last segment.
  uid: (data) => (typeof data.uri === 'string' ? data.uri.split('/').filter(Boolean).pop() : undefined),
});
