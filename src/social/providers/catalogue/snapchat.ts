import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { pickObject } from '../../kit/fields.js';
import { ProviderError } from '../../provider-type.js';

// Snap Kit: the user over GraphQL (externalId, displayName, and the bitmoji
// when its scope was granted).
const BITMOJI = 'https://auth.snapchat.com/oauth2/api/user.bitmoji.avatar';

export const snapchat = declareOAuth2Provider({
  id: 'snapchat',
  name: 'Snapchat',
  authorizeUrl: 'https://accounts.snapchat.com/accounts/oauth2/auth',
  tokenUrl: 'https://accounts.snapchat.com/accounts/oauth2/token',
  scope: ['https://auth.snapchat.com/oauth2/api/user.external_id', 'https://auth.snapchat.com/oauth2/api/user.display_name'],
  profile: async ({ api, context }) => {
    const bitmoji = (context.app.common.scope ?? []).includes(BITMOJI) ? ' bitmoji { avatar id }' : '';
    const answer = await api.object('https://api.snapkit.com/v1/me', { json: { query: `{ me { externalId displayName${bitmoji} } }` } });
    if (Object.keys(pickObject(answer, 'data')).length === 0) throw new ProviderError('Snapchat: no data');
    return answer;
  },
  uid: 'data.me.externalId',
  fullName: 'data.me.displayName',
});
