import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// X (Twitter) over OAuth 2: PKCE on, client credentials by HTTP Basic, the
// user from /2/users/me with FIELDS and HEADERS; X gives no address.
export const twitterOauth2 = declareOAuth2Provider({
  id: 'twitter_oauth2',
  name: 'X',
  pkce: true,
  settings: { fields: { kind: 'strings' }, headers: { kind: 'params' } },
  authorizeUrl: 'https://x.com/i/oauth2/authorize',
  tokenUrl: 'https://api.x.com/2/oauth2/token',
  token: { auth: 'basic' },
  scope: ['users.read', 'tweet.read'],
  profile: async ({ api, settings }) => {
    const fields = (settings.fields as string[] | undefined) ?? ['id', 'name', 'username', 'verified', 'profile_image_url', 'created_at'];
    const answer = await api.object('https://api.x.com/2/users/me', { query: { 'user.fields': fields.join(',') }, headers: settings.headers as Record<string, string> | undefined });
    return (answer.data as Record<string, unknown> | undefined) ?? {};
  },
  uid: 'id',
  username: 'username',
  fullName: 'name',
});
