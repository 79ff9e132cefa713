import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// LINE Login: with `email` among the app's scopes the account is the ID
// token as LINE's verify endpoint decodes it (the only place the address
// is), else the profile; as the reference does.
const wantsEmail = (scope: readonly string[] | null) => (scope ?? []).some((s) => s.includes('email'));

export const line = declareOAuth2Provider({
  id: 'line',
  name: 'Line',
  authorizeUrl: 'https://access.line.me/oauth2/v2.1/authorize',
  tokenUrl: 'https://api.line.me/oauth2/v2.1/token',
  profile: async ({ api, context, token }) => {
    if (wantsEmail(context.app.common.scope)) {
      return api.object('https://api.line.me/oauth2/v2.1/verify', { token: 'none', form: { client_id: context.app.clientId, id_token: String(token.raw.id_token ?? '') } });
    }
    return api.object('https://api.line.me/v2/profile');
  },
  uid: (data) => data.userId ?? data.sub,
  email: 'email',
  username: (data) => data.email ?? data.userId ?? data.sub,
  fullName: (data) => data.name ?? data.displayName,
  firstName: 'first_name',
  lastName: 'last_name',
});
