import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Lichess: PKCE on (Lichess requires it); the address from its own endpoint, kept in extra_data as `email`.
export const lichess = declareOAuth2Provider({
  id: 'lichess',
  name: 'Lichess',
  pkce: true,
  settings: { api_url: { kind: 'url', default: 'https://lichess.org' } },
  authorizeUrl: (s) => `${s.api_url as string}/oauth`,
  tokenUrl: (s) => `${s.api_url as string}/api/token`,
  scope: (_s, queryEmail) => (queryEmail ? ['email:read'] : []),
  profile: async ({ api, settings, context }) => {
    const base = settings.api_url as string;
    const answer = await api.object(`${base}/api/account`);
    const account = typeof answer.result === 'object' && answer.result !== null ? (answer.result as Record<string, unknown>) : answer;
    if (!context.queryEmail) return account;
    const email = await api.object(`${base}/api/account/email`);
    return { ...account, email: email.email };
  },
  uid: 'id',
  email: 'email',
  username: 'username',
  firstName: 'profile.firstName',
  lastName: 'profile.lastName',
});
