import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Twitch: Helix's /users answers the token's user as data[0]; Helix wants the app's Client-ID beside the token.
export const twitch = declareOAuth2Provider({
  id: 'twitch',
  name: 'Twitch',
  authorizeUrl: 'https://id.twitch.tv/oauth2/authorize',
  tokenUrl: 'https://id.twitch.tv/oauth2/token',
  scope: ['user:read:email'],
  profile: async ({ api, context }) => {
    const answer = await api.object('https://api.twitch.tv/helix/users', { headers: { 'client-id': context.app.clientId } });
    const [user] = Array.isArray(answer.data) ? answer.data : [];
    return typeof user === 'object' && user !== null ? (user as Record<string, unknown>) : {};
  },
  uid: 'id',
  email: 'email',
  username: 'login',
  fullName: 'display_name',
});
