import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// Gitea (gitea.com, or an instance at GITEA_URL): the API wants the `token` scheme.
export const gitea = declareOAuth2Provider({
  id: 'gitea',
  name: 'Gitea',
  settings: { gitea_url: { kind: 'url', default: 'https://gitea.com' } },
  authorizeUrl: (s) => `${s.gitea_url as string}/login/oauth/authorize`,
  tokenUrl: (s) => `${s.gitea_url as string}/login/oauth/access_token`,
  profile: { url: (s) => `${s.gitea_url as string}/api/v1/user`, token: { scheme: 'token' } },
  uid: 'id',
  email: 'email',
  username: 'login',
  fullName: 'name',
});
