import type { ProviderType } from '../provider-type.js';
import { booleanOption, stringOption } from '../app.js';
import { discoveryProvider } from '../kit/discovery-provider.js';
import { wellKnownUrl } from '../kit/servers.js';

// Google: OpenID Connect at accounts.google.com (server_url only to point
// elsewhere, e.g. a test stand-in). The ID token says it all, so userinfo is
// fetched only with FETCH_USERINFO (the reference's setting, default off),
// and the account keeps the ID token's claims (the reference's shape).

const GOOGLE = 'https://accounts.google.com';

export const google: ProviderType = {
  id: 'google',
  name: 'Google',
  flows: ['provider_redirect', 'provider_token'],
  options: { server_url: { kind: 'url', appOnly: true }, fetch_userinfo: { kind: 'boolean' } },
  create(context) {
    return discoveryProvider(context, {
      documentUrl: wellKnownUrl(stringOption(context.app, 'server_url') ?? GOOGLE),
      defaultScope: context.queryEmail ? ['openid', 'profile', 'email'] : ['openid', 'profile'],
      fetchUserinfo: booleanOption(context.app, 'fetch_userinfo') ?? false,
      // Google's ID tokens name their issuer with or without the scheme.
      issuers: (discovered) => (discovered === GOOGLE ? [GOOGLE, 'accounts.google.com'] : discovered),
      redirectData: ({ idClaims, userinfo }) => ({ ...idClaims, ...userinfo }),
    });
  },
};
