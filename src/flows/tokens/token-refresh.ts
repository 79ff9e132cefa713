import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import { invalid, type Outcome } from '../outcome.js';

/** The body of both refreshes (POST /tokens/refresh and the app's POST /auth/session). */
export const RefreshInput = Type.Object({ refresh_token: Type.Optional(Type.String({ description: 'The refresh token from meta.refresh_token or an earlier refresh.' })) });
export type RefreshInput = Static<typeof RefreshInput>;

type Refreshed = { access_token: string; refresh_token?: string };

/** Invalid, expired, reused, post-logout and access-token-as-refresh all read as one error. */
async function refresh(deps: Deps, ctx: RequestContext, input: RefreshInput | undefined): Promise<Refreshed | Outcome> {
  const presented = input?.refresh_token;
  if (!presented) return invalid({ code: 'required', param: 'refresh_token' });
  const pair = await deps.tokens.refreshToken(presented, { ip: ctx.ip, userAgent: ctx.userAgent });
  if (!pair) return invalid({ code: 'invalid_token', param: 'refresh_token' });
  // As the reference: a refresh token is only returned when it changed (rotation on).
  return pair.refresh_token && pair.refresh_token !== presented ? { access_token: pair.access_token, refresh_token: pair.refresh_token } : { access_token: pair.access_token };
}

/** POST /tokens/refresh: a new access token, and the next refresh token when rotating. */
export async function refreshTokens(deps: Deps, ctx: RequestContext, input: RefreshInput | undefined): Promise<Outcome> {
  const result = await refresh(deps, ctx, input);
  return 'kind' in result ? result : { kind: 'tokens', tokens: result };
}

/**
 * POST /auth/session {refresh_token}: the same refresh, answered as the
 * authentication state of the session the new access token belongs to.
 */
export async function refreshSession(deps: Deps, ctx: RequestContext, input: RefreshInput | undefined): Promise<Outcome> {
  const result = await refresh(deps, ctx, input);
  if ('kind' in result) return result;
  const live = deps.tokens.authenticate ? await deps.tokens.authenticate(result.access_token) : null;
  if (!live || live === 'gone' || !live.user?.isActive) return invalid({ code: 'invalid_token', param: 'refresh_token' });
  return { kind: 'auth', session: live.session, user: live.user, tokens: result };
}
