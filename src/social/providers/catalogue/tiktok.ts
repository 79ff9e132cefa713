import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { tokenAnswer, tokenRequest } from '../../kit/code-exchange.js';
import { pickObject } from '../../kit/fields.js';

// TikTok Login Kit: the client id is `client_key` (authorization and
// exchange alike), scopes are comma-separated, and the user's fields are
// named in the query (the basic ones, and the profile ones).
export const tiktok = declareOAuth2Provider({
  id: 'tiktok',
  name: 'TikTok',
  authorizeUrl: 'https://www.tiktok.com/v2/auth/authorize/',
  tokenUrl: 'https://open.tiktokapis.com/v2/oauth/token/',
  clientIdParam: 'client_key',
  scopeDelimiter: ',',
  scope: ['user.info.basic', 'user.info.profile'],
  async exchange(context, _settings, input) {
    const fields: Record<string, string> = { client_key: context.app.clientId, client_secret: context.app.secret, code: input.code, grant_type: 'authorization_code', redirect_uri: input.redirectUri };
    if (input.codeVerifier) fields.code_verifier = input.codeVerifier;
    return tokenAnswer(context, await tokenRequest(context, 'https://open.tiktokapis.com/v2/oauth/token/', {}, fields));
  },
  profile: async ({ api, context }) => {
    const scope = context.app.common.scope ?? ['user.info.basic', 'user.info.profile'];
    const fields = ['open_id', 'display_name', 'avatar_url', ...(scope.includes('user.info.profile') ? ['username', 'profile_deep_link'] : [])];
    return pickObject(await api.object('https://open.tiktokapis.com/v2/user/info/', { query: { fields: fields.join(',') }, headers: { 'client-id': context.app.clientId } }), 'data.user');
  },
  uid: 'open_id',
  username: (data) => data.username ?? data.display_name,
  fullName: 'display_name',
});
