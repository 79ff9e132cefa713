import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { ProviderError } from '../../provider-type.js';

// Sign in with Slack (OpenID Connect): the user from its userInfo method,
// which must say ok. The uid joins the team and the user, as the reference
// does, so the same person in two workspaces is two accounts.
export const slack = declareOAuth2Provider({
  id: 'slack',
  name: 'Slack',
  authorizeUrl: 'https://slack.com/openid/connect/authorize',
  tokenUrl: 'https://slack.com/api/openid.connect.token',
  scope: ['openid', 'profile', 'email'],
  profile: async ({ api }) => {
    const info = await api.object('https://slack.com/api/openid.connect.userInfo');
    if (info.ok !== true) throw new ProviderError(`Slack: ${String(info.error ?? 'userInfo failed')}`);
    return info;
  },
  uid: (data) => {
    const team = data['https://slack.com/team_id'] ?? (data.team as { id?: unknown } | undefined)?.id;
    const user = data['https://slack.com/user_id'] ?? (data.user as { id?: unknown } | undefined)?.id;
    return team && user ? `${String(team)}_${String(user)}` : undefined;
  },
  email: (data) => data.email ?? (data.user as { email?: unknown } | undefined)?.email,
  verified: 'email_verified',
  fullName: (data) => data.name ?? (data.user as { name?: unknown } | undefined)?.name,
  firstName: 'given_name',
  lastName: 'family_name',
});
