import type { Deps } from '../context.js';
import type { ProviderTokens } from '../../social/provider-type.js';
import type { Conn } from '../../store/db.js';
import type { AtRestCipher } from '../../security/at-rest.js';
import { saveSocialTokens, type SealedTokens } from '../../store/social-tokens.js';

// Provider tokens are kept only with SOCIALACCOUNT_STORE_TOKENS, sealed at
// rest for the one account they belong to.

/** The at-rest context of an account's stored token (`token`) or refresh token (`token_secret`). */
export const tokenSealContext = (socialAccountId: number, part: 'token' | 'token_secret') => `socialtoken:${socialAccountId}:${part}`;

/** An account's tokens as stored: sealed for that account (the import from django-allauth seals with it too). */
export function sealProviderTokens(atRest: AtRestCipher, socialAccountId: number, tokens: ProviderTokens): SealedTokens {
  return {
    token: atRest.seal(tokens.accessToken, tokenSealContext(socialAccountId, 'token')),
    tokenSecret: tokens.refreshToken === null ? null : atRest.seal(tokens.refreshToken, tokenSealContext(socialAccountId, 'token_secret')),
    expiresAt: tokens.expiresAt,
  };
}

export async function storeProviderTokens(deps: Deps, conn: Conn, socialAccountId: number, tokens: ProviderTokens | null, now: number): Promise<void> {
  if (!deps.config.social.storeTokens || !tokens) return;
  await saveSocialTokens(conn, socialAccountId, sealProviderTokens(deps.atRest, socialAccountId, tokens), now);
}

const pendingContext = (provider: string, uid: string) => `provider_signup:${provider}:${uid}`;

/** Tokens waiting in a pending provider signup (which has no account yet), sealed for that provider account. */
export function sealPendingTokens(deps: Deps, tokens: ProviderTokens | null, provider: string, uid: string): string | null {
  if (!deps.config.social.storeTokens || !tokens) return null;
  return deps.atRest.seal(JSON.stringify(tokens), pendingContext(provider, uid));
}

export function openPendingTokens(deps: Deps, sealed: string | null, provider: string, uid: string): ProviderTokens | null {
  const plain = sealed === null ? null : deps.atRest.open(sealed, pendingContext(provider, uid));
  return plain === null ? null : (JSON.parse(plain) as ProviderTokens);
}
