import { declareOAuth2Provider } from '../../kit/declared-provider.js';

// JupyterHub at API_URL: the hub's own user; no address.
export const jupyterhub = declareOAuth2Provider({
  id: 'jupyterhub',
  name: 'JupyterHub',
  settings: { api_url: { kind: 'url', required: true } },
  authorizeUrl: (s) => `${s.api_url as string}/hub/api/oauth2/authorize`,
  tokenUrl: (s) => `${s.api_url as string}/hub/api/oauth2/token`,
  profile: { url: (s) => `${s.api_url as string}/hub/api/user` },
  uid: 'name',
  fullName: 'name',
});
