import { randomUUID } from 'node:crypto';
import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { pickObject } from '../../kit/fields.js';
import { ProviderError } from '../../provider-type.js';

// VK ID: PKCE on (VK requires it); the exchange carries the device_id VK
// put in the callback and a fresh state; the user from a POSTed user_info.
export const vk = declareOAuth2Provider({
  id: 'vk',
  name: 'VK',
  pkce: true,
  authorizeUrl: 'https://id.vk.ru/authorize',
  tokenUrl: 'https://id.vk.ru/oauth2/auth',
  tokenFields: (params) => ({ device_id: params.get('device_id') ?? '', state: randomUUID() }),
  scope: (_s, queryEmail) => (queryEmail ? ['email'] : []),
  profile: async ({ api, context, token }) => {
    const answer = await api.object('https://id.vk.ru/oauth2/user_info', { token: 'none', form: { access_token: token.tokens.accessToken, client_id: context.app.clientId } });
    if ('error' in answer || !('user' in answer)) throw new ProviderError('VK: no user in user_info');
    return pickObject(answer, 'user');
  },
  uid: 'user_id',
  email: 'email',
  username: 'screen_name',
  firstName: 'first_name',
  lastName: 'last_name',
});
