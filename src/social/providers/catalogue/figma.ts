import { declareOAuth2Provider } from '../../kit/declared-provider.js';

export const figma = declareOAuth2Provider({
  id: 'figma',
  name: 'Figma',
  authorizeUrl: 'https://www.figma.com/oauth',
  tokenUrl: 'https://www.figma.com/api/oauth/token',
  profile: { url: 'https://api.figma.com/v1/me' },
  uid: 'id',
  email: 'email',
  fullName: 'handle',
});
