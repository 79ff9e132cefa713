import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { isObject } from '../../kit/api.js';

// Bitbucket Cloud: the user from /2.0/user; with SOCIALACCOUNT_QUERY_EMAIL
// its primary (else first) address from /2.0/user/emails, kept in extra_data
// as `email` like the reference.
const API = 'https://api.bitbucket.org/2.0';

export const bitbucketOauth2 = declareOAuth2Provider({
  id: 'bitbucket_oauth2',
  name: 'Bitbucket',
  authorizeUrl: 'https://bitbucket.org/site/oauth2/authorize',
  tokenUrl: 'https://bitbucket.org/site/oauth2/access_token',
  profile: async ({ api, context }) => {
    const user = await api.object(`${API}/user`, { token: { query: 'access_token' } });
    if (!context.queryEmail) return user;
    const answer = await api.object(`${API}/user/emails`, { token: { query: 'access_token' } });
    const values = Array.isArray(answer.values) ? answer.values.filter(isObject) : [];
    const chosen = values.find((e) => e.is_primary === true) ?? values[0];
    return chosen ? { ...user, email: chosen.email } : user;
  },
  uid: 'username',
  email: 'email',
  username: 'username',
  fullName: 'display_name',
});
