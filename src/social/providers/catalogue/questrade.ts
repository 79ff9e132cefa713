import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Questrade: the accounts of the API server the token answer names; the
// reference keeps the token answer beside them, under `response` (here
// without the tokens themselves).
export const questrade = declareOAuth2Provider({
  id: 'questrade',
  name: 'Questrade',
  authorizeUrl: 'https://login.questrade.com/oauth2/authorize',
  tokenUrl: 'https://login.questrade.com/oauth2/token',
  profile: async ({ api, token }) => {
    // A URL from the answer: used only when it is one of Questrade's own hosts.
    const named = token.raw.api_server;
    const server = typeof named === 'string' && /^https:\/\/[a-z0-9.-]+\.questrade\.com\/$/.test(named) ? named : 'https://api01.iq.questrade.com/';
    const { access_token: _a, refresh_token: _r, ...response } = token.raw;
    return { ...(await api.object(`${server}v1/accounts`)), response };
  },
  uid: 'userId',
});
