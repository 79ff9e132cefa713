import { bearer, oauthEndpoints, startStandin, type OAuthEndpoints, type Standin } from './standin.js';

// Stand-ins on loopback for Microsoft (its tenant endpoints and Graph),
// GitLab and Discord: each the provider's OAuth endpoints plus the API calls
// the provider file makes, with the answers those APIs document.

export interface ProviderStandin<User> extends OAuthEndpoints {
  url: string;
  standin: Standin;
  addClient(clientId: string, secret: string): void;
  addUser(key: string, user: User): void;
  close(): Promise<void>;
}

function base<User>(standin: Standin, paths: { authorizePath: string; tokenPath: string }) {
  const clients = new Map<string, string>();
  const users = new Map<string, User>();
  const oauth = oauthEndpoints(standin, { ...paths, clients });
  const userOf = (request: Parameters<typeof bearer>[0]) => {
    const token = oauth.tokens.get(bearer(request));
    return token ? { user: users.get(token.user), clientId: token.clientId } : undefined;
  };
  const standinApi: ProviderStandin<User> = {
    ...oauth,
    url: standin.url,
    standin,
    addClient: (clientId, secret) => void clients.set(clientId, secret),
    addUser: (key, user) => void users.set(key, user),
    close: () => standin.close(),
  };
  return { api: standinApi, userOf };
}

export const CONSUMERS_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

/** Microsoft: login_url and graph_url both point here; users are keyed by their Graph id. */
export async function startMicrosoft(): Promise<ProviderStandin<Record<string, unknown>>> {
  const standin = await startStandin();
  const { api, userOf } = base<Record<string, unknown>>(standin, { authorizePath: '/common/oauth2/v2.0/authorize', tokenPath: '/common/oauth2/v2.0/token' });
  for (const tenant of ['common', 'organizations']) {
    standin.routes.set(`GET /${tenant}/v2.0/.well-known/openid-configuration`, () => ({
      json: {
        // The multi-tenant endpoints name the issuer with a placeholder for the user's tenant.
        issuer: `${standin.url}/{tenantid}/v2.0`,
        authorization_endpoint: `${standin.url}/common/oauth2/v2.0/authorize`,
        token_endpoint: `${standin.url}/common/oauth2/v2.0/token`,
        jwks_uri: `${standin.url}/common/discovery/v2.0/keys`,
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      },
    }));
  }
  standin.routes.set('GET /common/discovery/v2.0/keys', async () => ({ json: await standin.jwks() }));
  standin.routes.set('GET /v1.0/me', (request) => {
    const found = userOf(request)?.user;
    return found ? { json: found } : { status: 401, json: { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty.' } } };
  });
  return api;
}

/** GitLab: gitlab_url points here; users are keyed by their numeric id (as text). */
export async function startGitLab(): Promise<ProviderStandin<Record<string, unknown>>> {
  const standin = await startStandin();
  const { api, userOf } = base<Record<string, unknown>>(standin, { authorizePath: '/oauth/authorize', tokenPath: '/oauth/token' });
  standin.routes.set('GET /api/v4/user', (request) => {
    const found = userOf(request)?.user;
    return found ? { json: found } : { status: 401, json: { message: '401 Unauthorized' } };
  });
  standin.routes.set('GET /oauth/token/info', (request) => {
    const token = userOf(request);
    if (!token?.user) return { status: 401, json: { error: 'invalid_token' } };
    return { json: { resource_owner_id: token.user.id, scope: ['read_user'], expires_in: 7200, application: { uid: token.clientId } } };
  });
  return api;
}

/** Discord: api_url points at /api here; users are keyed by their id. */
export async function startDiscord(): Promise<ProviderStandin<Record<string, unknown>>> {
  const standin = await startStandin();
  const { api, userOf } = base<Record<string, unknown>>(standin, { authorizePath: '/api/oauth2/authorize', tokenPath: '/api/oauth2/token' });
  standin.routes.set('GET /api/users/@me', (request) => {
    const found = userOf(request)?.user;
    return found ? { json: found } : { status: 401, json: { message: '401: Unauthorized', code: 0 } };
  });
  standin.routes.set('GET /api/oauth2/@me', (request) => {
    const token = userOf(request);
    if (!token?.user) return { status: 401, json: { message: '401: Unauthorized', code: 0 } };
    // The user object here carries no address; the application names the client.
    return { json: { application: { id: token.clientId, name: 'An app' }, scopes: ['identify', 'email'], user: { id: token.user.id, username: token.user.username } } };
  });
  return api;
}
