import * as oidc from 'openid-client';
import type { AuthorizationRequest, CallbackInput, ProviderContext, ProviderTokens } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';

// The two halves of the authorization code flow, done by openid-client:
// the authorization URL (state, PKCE S256, nonce, scopes, extra parameters)
// and the code exchange, which also checks an ID token's iss, aud, azp, exp
// and nonce when the provider returns one (it must, when a nonce was sent).
// Its signature is not checked there, as in the reference: it came straight
// from the token endpoint over TLS.

/** The app's scopes (its `scope` setting, else the type's default), each once, in order. */
export function scopes(context: ProviderContext, defaults: readonly string[]): string {
  return [...new Set(context.app.common.scope ?? defaults)].join(' ');
}

/** Whether these scopes make an OpenID Connect request, answered with an ID token. */
export function isOpenIdRequest(scope: string): boolean {
  return scope.split(' ').includes('openid');
}

export function authorizationUrl(
  config: oidc.Configuration,
  context: ProviderContext,
  request: AuthorizationRequest,
  parameters: { scope: string; extra?: Record<string, string> },
): URL {
  const query: Record<string, string> = {
    redirect_uri: request.redirectUri,
    scope: parameters.scope,
    response_type: 'code',
    state: request.state,
    ...parameters.extra,
    ...context.app.common.authParams,
  };
  if (!query.scope) delete query.scope;
  if (request.codeChallenge) {
    query.code_challenge = request.codeChallenge;
    query.code_challenge_method = 'S256';
  }
  if (request.nonce) query.nonce = request.nonce;
  return oidc.buildAuthorizationUrl(config, query);
}

export interface Exchanged {
  tokens: ProviderTokens;
  /** The ID token's claims, checked (iss, aud, azp, exp), when the provider returned one. */
  idClaims: Record<string, unknown> | null;
}

export async function exchangeCode(config: oidc.Configuration, context: ProviderContext, input: CallbackInput): Promise<Exchanged> {
  const current = new URL(input.redirectUri);
  for (const [name, value] of input.params) current.searchParams.append(name, value);
  let response;
  try {
    response = await oidc.authorizationCodeGrant(config, current, {
      expectedState: input.state,
      ...(input.codeVerifier ? { pkceCodeVerifier: input.codeVerifier } : {}),
      ...(input.nonce ? { expectedNonce: input.nonce } : {}),
    });
  } catch (error) {
    throw new ProviderError(`code exchange failed: ${(error as Error).message}`, { cause: error });
  }
  const expiresIn = response.expiresIn();
  return {
    tokens: {
      accessToken: response.access_token,
      refreshToken: response.refresh_token ?? null,
      expiresAt: expiresIn === undefined ? null : context.now() + expiresIn * 1000,
    },
    idClaims: (response.claims() as Record<string, unknown> | undefined) ?? null,
  };
}
