import type { ProviderType } from '../provider-type.js';
import { stringOption, booleanOption } from '../app.js';
import { wellKnownUrl } from '../kit/servers.js';
import { discoveryProvider } from '../kit/discovery-provider.js';
import { oidcIdentity } from '../kit/claims.js';

// Any OpenID Connect provider (Keycloak, Auth0, Okta, Authentik, ...): as
// many apps as needed, each with its own `provider_id`, endpoints from the
// discovery document at `server_url`.

export const openidConnect: ProviderType = {
  id: 'openid_connect',
  name: 'OpenID Connect',
  flows: ['provider_redirect', 'provider_token'],
  options: {
    server_url: { kind: 'url', required: true, appOnly: true },
    token_auth_method: { kind: 'string', oneOf: ['client_secret_post', 'client_secret_basic'] },
    fetch_userinfo: { kind: 'boolean' },
    uid_field: { kind: 'string' },
  },
  create(context) {
    return discoveryProvider(context, {
      documentUrl: wellKnownUrl(stringOption(context.app, 'server_url')!),
      defaultScope: ['openid', 'profile', 'email'],
      fetchUserinfo: booleanOption(context.app, 'fetch_userinfo') ?? true,
      identity: (claims, extraData) => oidcIdentity(claims, extraData, stringOption(context.app, 'uid_field')),
    });
  },
};
