import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { ProviderError } from '../../provider-type.js';
import { pickObject } from '../../kit/fields.js';

// Dataporten (Feide): userinfo must be about this app (its audience); the
// username is the Feide id when there is one, else the address's local part.
export const dataporten = declareOAuth2Provider({
  id: 'dataporten',
  name: 'Dataporten',
  authorizeUrl: 'https://auth.dataporten.no/oauth/authorization',
  tokenUrl: 'https://auth.dataporten.no/oauth/token',
  profile: async ({ api, context }) => {
    const answer = await api.object('https://auth.dataporten.no/userinfo');
    if (answer.audience !== context.app.clientId) throw new ProviderError('Dataporten: userinfo for another app');
    return pickObject(answer, 'user');
  },
  uid: 'userid',
  email: 'email',
  fullName: 'name',
  username: (data) => {
    const feide = (Array.isArray(data.userid_sec) ? data.userid_sec : []).find((id): id is string => typeof id === 'string' && id.startsWith('feide:'));
    if (feide) return feide.slice('feide:'.length).split('@')[0];
    return typeof data.email === 'string' ? data.email.split('@')[0] : undefined;
  },
});
