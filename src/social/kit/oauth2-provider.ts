import type * as oidc from 'openid-client';
import type { Identity, Provider, ProviderContext } from '../provider-type.js';
import { clientAuth, fixedServer } from './servers.js';
import { authorizationUrl, exchangeCode, scopes } from './authorization.js';
import { accountDisplay } from './display.js';

// A plain OAuth 2 provider with fixed endpoints and no ID token (GitHub,
// GitLab, Discord): the redirect flow redeems the code, then reads the
// provider's API for the user. The token flow takes an access token, and
// only after the provider confirmed it was issued to this app (a token from
// another app must not log anyone in here).

export function oauth2Provider(
  context: ProviderContext,
  spec: {
    /** The provider's web origin (used as the issuer identifier). */
    issuer: string;
    authorizationEndpoint: string;
    tokenEndpoint: string;
    defaultScope: readonly string[];
    /** The user behind an access token of this app. */
    profile: (config: oidc.Configuration, accessToken: string) => Promise<Identity>;
    /** The uid of the user an access token was issued to, asked of the provider; null when the token is not this app's. */
    tokenOwner: (config: oidc.Configuration, accessToken: string) => Promise<string | null>;
    display?: (extraData: Record<string, unknown>) => string;
  },
): Provider {
  const config = fixedServer(
    context,
    { issuer: spec.issuer, authorization_endpoint: spec.authorizationEndpoint, token_endpoint: spec.tokenEndpoint },
    clientAuth(context, 'client_secret_post'),
  );
  return {
    app: context.app,
    // No ID token to bind a nonce to.
    usesNonce: false,
    async authorizationUrl(request) {
      return authorizationUrl(config, context, request, { scope: scopes(context, spec.defaultScope) });
    },
    async completeRedirect(input) {
      const { tokens } = await exchangeCode(config, context, input);
      return { identity: await spec.profile(config, tokens.accessToken), tokens };
    },
    async verifyToken(token) {
      if (!token.accessToken) return null;
      const owner = await spec.tokenOwner(config, token.accessToken);
      if (owner === null) return null;
      const identity = await spec.profile(config, token.accessToken);
      return identity.uid === owner ? { identity, tokens: { accessToken: token.accessToken, refreshToken: null, expiresAt: null } } : null;
    },
    display: spec.display ?? ((extraData) => accountDisplay(extraData, context.app.name)),
  };
}
