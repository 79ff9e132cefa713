import { declareOAuth2Provider, ownedAccessToken } from '../kit/declared-provider.js';
import { isObject } from '../kit/api.js';
import { uidOf } from '../kit/claims.js';

// GitLab (gitlab.com, or a self-managed instance at gitlab_url): OAuth 2, the
// user from /api/v4/user. GitLab does not say whether that address is
// verified, so it counts as unverified (as in the reference). The token flow
// (ours) takes an access token once token introspection names this app.

export const gitlab = declareOAuth2Provider({
  id: 'gitlab',
  name: 'GitLab',
  // PKCE on, as for this server's first provider types (GitLab accepts it).
  pkce: true,
  settings: { gitlab_url: { kind: 'url', default: 'https://gitlab.com' } },
  authorizeUrl: (s) => `${s.gitlab_url as string}/oauth/authorize`,
  tokenUrl: (s) => `${s.gitlab_url as string}/oauth/token`,
  scope: ['read_user'],
  profile: { url: (s) => `${s.gitlab_url as string}/api/v4/user` },
  uid: 'id',
  email: 'email',
  verified: false,
  username: 'username',
  fullName: 'name',
  tokenFlow: ownedAccessToken(async (api, { context, settings }) => {
    const info = await api.answer(`${settings.gitlab_url as string}/oauth/token/info`);
    if (info.status !== 200 || !isObject(info.body) || !isObject(info.body.application)) return null;
    return info.body.application.uid === context.app.clientId ? uidOf(info.body.resource_owner_id) : null;
  }),
});
